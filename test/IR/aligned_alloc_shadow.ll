; Aligned allocations get aligned shadows: the optimizer knows the primal's
; alignment (aligned_alloc's allocalign, posix_memalign's argument) and the
; shadow is read and written with the primal's access alignment, so its shadow
; is allocated by __ad_shadow_alloc_aligned with the same alignment.
; posix_memalign(&p, align, size) writes the memory through &p: the shadow goes
; to the shadow of &p, only if the call returned 0, and the reverse sweep frees
; it where it meets the call. Both modes.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x) {
entry:
  %slot = alloca ptr
  %buf = call ptr @aligned_alloc(i64 64, i64 64)
  store double %x, ptr %buf, align 64
  %st = call i32 @posix_memalign(ptr %slot, i64 32, i64 16)
  %p = load ptr, ptr %slot
  %x2 = fmul double %x, %x
  store double %x2, ptr %p, align 32
  %a = load double, ptr %buf, align 64
  %b = load double, ptr %p, align 32
  %s = fmul double %a, %b
  call void @free(ptr %buf)
  call void @free(ptr %p)
  ret double %s
}

declare ptr @aligned_alloc(i64, i64)
declare i32 @posix_memalign(ptr, i64, i64)
declare void @free(ptr)

define double @rev(double %x) {
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, double %x)
  ret double %g
}
define double @fwd(double %x) {
  %t = call double (ptr, ...) @__ad_fwddiff(ptr @f, double %x, double 1.0)
  ret double %t
}

declare double @__ad_autodiff(ptr, ...)
declare double @__ad_fwddiff(ptr, ...)

; CHECK-LABEL: define internal {{.*}} @f.ad.gradient(
; CHECK:         %buf = call ptr @aligned_alloc(i64 64, i64 64)
; CHECK-NEXT:    %shadow.alloc = call ptr @__ad_shadow_alloc_aligned(i64 64, i64 64)
; CHECK:         %st = call i32 @posix_memalign(ptr %slot, i64 32, i64 16)
; CHECK-NEXT:    [[OUT:%.*]] = call ptr @__ad_shadow_alloc_out(ptr %slot.shadow, i64 32, i64 16, i32 %st)
; CHECK:         %p.shadow = load ptr, ptr %slot.shadow
; CHECK-LABEL: rev.entry:
; CHECK:         call void @free(ptr [[OUT]])
; CHECK:         call void @free(ptr %shadow.alloc)

; The run-time helpers: aligned (at least 16), zeroed, abort when out of memory.
; CHECK-LABEL: define linkonce_odr hidden ptr @__ad_shadow_alloc_aligned(i64 %0, i64 %1)
; CHECK:         call i64 @llvm.umax.i64(i64 %0, i64 16)
; CHECK:         call i32 @posix_memalign(
; CHECK:         call void @abort()
; CHECK:         call void @llvm.memset
; CHECK-LABEL: define linkonce_odr hidden ptr @__ad_shadow_alloc_out(ptr %0, i64 %1, i64 %2, i32 %3)
; CHECK:         icmp eq i32 %3, 0
; CHECK:         call ptr @__ad_shadow_alloc_aligned(i64 %1, i64 %2)
; CHECK:         store ptr {{.*}}, ptr %0

; CHECK-LABEL: define internal {{.*}} @f.ad.tangent(
; CHECK:         %buf = call ptr @aligned_alloc(i64 64, i64 64)
; CHECK-NEXT:    %shadow.alloc = call ptr @__ad_shadow_alloc_aligned(i64 64, i64 64)
; CHECK:         %st = call i32 @posix_memalign(ptr %slot, i64 32, i64 16)
; CHECK-NEXT:    call ptr @__ad_shadow_alloc_out(ptr %slot.shadow, i64 32, i64 16, i32 %st)
; CHECK:         %p.d = load ptr, ptr %slot.shadow
; CHECK:         call void @free(ptr %buf)
; CHECK-NEXT:    call void @free(ptr %shadow.alloc)
; CHECK-NEXT:    call void @free(ptr %p)
; CHECK-NEXT:    call void @free(ptr %p.d)

; A memcpy of raw bytes next to an untagged integer store into its source:
; -O2 turns a small memcpy or memset of doubles into exactly such an i64
; store, so the store says nothing about what the memory holds (fuzz seed
; 171, snumo2). It used to type the copy as integers and drop its adjoint
; without a word. Typed by the caller's allocations, the copy moves doubles;
; with nothing typing it, it is an error.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s
; RUN: sed -e 's/@typed(ptr %%dx, ptr %%dy)/@bare(ptr %%x, ptr %%dx, ptr %%y, ptr %%dy)/' -e '/ = alloca/d' %s \
; RUN:   | not %opt_ad -passes=ad -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=BARE

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @g(ptr %x, ptr %y) {
entry:
  %dst = getelementptr i8, ptr %y, i64 32
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %x, i64 32, i1 false)
  store i64 0, ptr %x, align 8
  ret double 0.0
}

define void @typed(ptr %dx, ptr %dy) {
  %x = alloca [8 x double]
  %y = alloca [8 x double]
  call void (ptr, ...) @__ad_autodiff_void(ptr @g, ptr %x, ptr %dx, ptr %y, ptr %dy)
  ret void
}

declare void @__ad_autodiff_void(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; The integer store resets x[0]'s shadow bytes; then the copy's adjoint
; moves dy[4..7] into dx[0..3], four doubles of 8 bytes.
; CHECK-LABEL: define internal void @g.ad.gradient(
; CHECK:         call void @__ad_memcpy_adjoint.double(ptr {{%.*}}, ptr {{%.*}}, i64 4, i64 8)

; BARE: error: {{.*}}cannot differentiate 'g': cannot tell which bytes of this memory copy hold floating-point data

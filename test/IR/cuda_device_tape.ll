; GPU device code has malloc and free but no realloc, calloc or abort: a
; thread's tape starts in 256 bytes of its local memory, grows into the
; device heap by malloc, a copy of the bytes in use and free (of heap
; buffers only), and a failed allocation traps. The loop's trip count is data-dependent, so its values
; go on the tape.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

define double @f(double %x, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ %x, %entry ], [ %s1, %loop ]
  %s1 = call double @__nv_sin(double %s)
  %i1 = add i32 %i, 1
  %big = fcmp olt double %s1, 0.25
  %more = icmp slt i32 %i1, %n
  %go = and i1 %more, %big
  br i1 %go, label %loop, label %exit
exit:
  ret double %s1
}

define double @grad(double %x, i32 %n) {
  %r = call double (ptr, ...) @__ad_autodiff(ptr @f, double %x, i32 %n)
  ret double %r
}

declare double @__ad_autodiff(ptr, ...)
declare double @__nv_sin(double)

; sin's rule, in libdevice's name (this module has no libdevice bodies, as
; with -nocudalib: the declaration stays for the program to resolve).
; CHECK-LABEL: define internal {{.*}} @f.ad.gradient(
; CHECK: %tape.local = alloca [256 x i8], align 16
; CHECK: call double @__nv_cos(double
; CHECK: declare double @__nv_cos(double)
; CHECK-LABEL: define linkonce_odr hidden void @__ad_tape_grow(
; CHECK-NOT: realloc
; The first records go to the thread's local buffer, then to the heap:
; CHECK: call ptr @malloc(i64
; CHECK: call void @llvm.memcpy
; Only a heap buffer is freed, not the local one (capacity 256):
; CHECK: icmp ugt i64 %{{.*}}, 256
; CHECK: call void @free(
; CHECK: call void @llvm.trap()
; CHECK-NOT: @abort

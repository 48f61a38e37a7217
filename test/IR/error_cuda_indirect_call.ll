; Device code: an indirect call whose pointer may be a function defined in
; another file would need a run-time stop, which on a GPU is a bare trap
; with no message; it stays a compile-time error (the host dispatches it,
; docs/CXX.md). A choice between functions the module knows (a select of
; them: the set is closed) is dispatched on the device too.
; RUN: sed -e 's/CALLEE/%fn/' %s | not %opt_ad -passes=ad -S -o /dev/null 2>&1 | FileCheck %s
; RUN: sed -e 's/CALLEE/%chosen/' %s | %opt_ad -passes=ad -S -o - | FileCheck %s --check-prefix=CLOSED
; CHECK: cannot differentiate 'f': indirect call or inline assembly with differentiated arguments
; CLOSED-LABEL: define internal {{.*}}@f.ad.gradient(
; CLOSED: icmp eq ptr %chosen, @square
; CLOSED-NOT: call void @llvm.trap
; CLOSED: ret

target triple = "nvptx64-nvidia-cuda"

@table = global [2 x ptr] [ptr @square, ptr @cube] ; their addresses are taken

define internal double @square(double %x) {
  %r = fmul double %x, %x
  ret double %r
}

define internal double @cube(double %x) {
  %s = fmul double %x, %x
  %r = fmul double %s, %x
  ret double %r
}

define double @f(double %x, ptr %fn, i32 %k) {
  %c = icmp ne i32 %k, 0
  %chosen = select i1 %c, ptr @square, ptr @cube
  %r = call double CALLEE(double %x)
  ret double %r
}

define void @k(ptr %out, double %x, ptr %fn) {
  %m = load i32, ptr @__ad_const
  %d = call double (ptr, ...) @__ad_autodiff(ptr @f, double %x, i32 %m, ptr %fn, i32 %m, i32 1)
  store double %d, ptr %out
  ret void
}

@__ad_const = external global i32
declare double @__ad_autodiff(ptr, ...)

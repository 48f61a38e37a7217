; In GPU device code every thread runs its own derivative, and several may
; read one location (w[0] here, read by every thread): the adjoints of such
; reads are added to the shadow with atomic adds, or some are lost. Memory
; the thread allocated itself (a local array) is its own: plain adds. On a
; host, the same function accumulates with plain adds everywhere.
; RUN: sed -e 's/TRIPLE/nvptx64-nvidia-cuda/' %s | %opt_ad -passes=ad -S | FileCheck %s --check-prefix=GPU
; RUN: sed -e 's/TRIPLE/x86_64-pc-linux-gnu/' %s | %opt_ad -passes=ad -S | FileCheck %s --check-prefix=HOST

target triple = "TRIPLE"

define double @f(ptr %x, ptr %w) {
entry:
  %local = alloca [2 x double], align 8
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ti = zext i32 %t to i64
  %px = getelementptr inbounds double, ptr %x, i64 %ti
  %v = load double, ptr %px, align 8
  %w0 = load double, ptr %w, align 8
  store double %v, ptr %local, align 8
  %l = load volatile double, ptr %local, align 8
  %p = fmul double %l, %w0
  ret double %p
}

define double @grad(ptr %x, ptr %dx, ptr %w, ptr %dw) {
  %r = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx, ptr %w, ptr %dw)
  ret double %r
}

declare double @__ad_autodiff(ptr, ...)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; GPU-LABEL: define internal void @f.ad.gradient(
; The local array's shadow (after SROA, one double): a plain load-add-store.
; GPU-NOT: atomicrmw fadd ptr %local
; GPU: load double, ptr %[[LOCAL:local.*shadow]]
; GPU: store double %{{.*}}, ptr %[[LOCAL]]
; GPU-NOT: atomicrmw fadd ptr %local
; w's shadow (argument 3) and x[t]'s:
; GPU-DAG: atomicrmw fadd ptr %3, double %w0.d monotonic
; GPU-DAG: atomicrmw fadd ptr %px.shadow, double %v.d monotonic
; GPU: ret void

; HOST-LABEL: define internal void @f.ad.gradient(
; HOST-NOT: atomicrmw
; HOST: ret void

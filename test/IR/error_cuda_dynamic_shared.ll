; Dynamic shared memory (CUDA's `extern __shared__ double buf[]`) is sized
; by the launch; its declaration has no size, so a shadow of that size would
; overlap the primal (or other shared data). An error at the access, never a
; derivative written over the primal.
; RUN: not %opt_ad -passes=ad %s -S -o /dev/null 2>&1 | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

@buf = external addrspace(3) global [0 x double], align 8

define double @f(ptr %x) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ti = zext i32 %t to i64
  %px = getelementptr inbounds double, ptr %x, i64 %ti
  %v = load double, ptr %px, align 8
  %pb = getelementptr inbounds double, ptr addrspacecast (ptr addrspace(3) @buf to ptr), i64 %ti
  store double %v, ptr %pb, align 8
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %w = load double, ptr addrspacecast (ptr addrspace(3) @buf to ptr), align 8
  %p = fmul double %w, %v
  ret double %p
}

define void @k(ptr %x, ptr %dx) {
  %r = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx)
  ret void
}

declare double @__ad_autodiff(ptr, ...)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

; CHECK: error: {{.*}}dynamic shared memory ('extern __shared__ buf[]') in a differentiated function: its size is known only at launch, so it has no shadow; hint: declare the __shared__ array with a fixed size

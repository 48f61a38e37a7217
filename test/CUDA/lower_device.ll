; The cuda-host-device lowering on a small NVPTX module: the host triple,
; special registers read from the thread state, barriers, shuffles and votes
; as runtime calls, shared arrays as host globals (the dynamic one as the
; runtime's buffer), a yield before the store to shared memory but not before
; the one to the stack, NVVM atomics as atomicrmw, libdevice calls kept, and
; the kernel's entry and registration.
; RUN: %opt_cudahost -passes=cuda-host-device -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x float] undef, align 4
@dyn = external addrspace(3) global [0 x float], align 4

; CHECK: target triple = "x86_64-pc-linux-gnu"
; CHECK-DAG: @tile = internal global [64 x float] zeroinitializer, align 4
; CHECK-DAG: @__cudahost_dynamic_shared = external global [232448 x i8]
; CHECK-DAG: @llvm.global_ctors = appending global {{.*}} @__cudahost_register_module

; CHECK-LABEL: define internal void @kernel(ptr %out, float %v)
; CHECK: %[[STATE:.*]] = load ptr, ptr @__cudahost_current
; CHECK: %[[TIDP:.*]] = getelementptr inbounds i32, ptr %[[STATE]], i64 0
; CHECK: %tid = load i32, ptr %[[TIDP]]
; CHECK: %slot = getelementptr float, ptr @tile, i64 %idx
; CHECK-NEXT: call void @__cudahost_yield()
; CHECK-NEXT: store float %v, ptr %slot
; CHECK: call void @__cudahost_barrier()
; CHECK: call i64 @__cudahost_shfl(i32 2, i32 -1, i32 %{{.*}}, i32 16, i32 31)
; CHECK: call i32 @__cudahost_vote(i32 3, i32 -1, i32 %{{.*}})
; CHECK: atomicrmw fadd ptr %out, float %v seq_cst
; CHECK: call float @__nv_sinf(float %v)
; CHECK-NOT: call void @__cudahost_yield()
; CHECK: store float %sin, ptr %local
; CHECK: %d = getelementptr float, ptr @__cudahost_dynamic_shared, i64 %idx
; CHECK-NEXT: call void @__cudahost_yield()
; CHECK-NEXT: store float %down, ptr %d
; CHECK-NOT: llvm.nvvm
; CHECK-LABEL: define internal void @__cudahost_register_module()
; CHECK: call void @__cudahost_register_kernel(ptr @{{.*}}, ptr @__cudahost_entry.kernel)
; CHECK: call void @__cudahost_register_shared(ptr @tile, i64 256)
; CHECK-LABEL: define internal void @__cudahost_entry.kernel(ptr %0)
; CHECK: %[[A0:.*]] = load ptr, ptr %{{.*}}, align 8
; CHECK: %[[OUT:.*]] = load ptr, ptr %[[A0]], align 1
; CHECK: %[[A1:.*]] = load ptr, ptr %{{.*}}, align 8
; CHECK: %[[V:.*]] = load float, ptr %[[A1]], align 1
; CHECK: call void @kernel(ptr %[[OUT]], float %[[V]])

define ptx_kernel void @kernel(ptr %out, float %v) {
  %local = alloca float
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %tid to i64
  %slot = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 %idx
  store float %v, ptr %slot
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %down = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 16, i32 31)
  %odd = trunc i32 %tid to i1
  %ballot = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %odd)
  %old = call float @llvm.nvvm.atomic.add.gen.f.cta.f32.p0(ptr %out, float %v)
  %sin = call float @__nv_sinf(float %v)
  store float %sin, ptr %local
  %d = getelementptr float, ptr addrspacecast (ptr addrspace(3) @dyn to ptr), i64 %idx
  store float %down, ptr %d
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare float @llvm.nvvm.atomic.add.gen.f.cta.f32.p0(ptr, float)
declare float @__nv_sinf(float)

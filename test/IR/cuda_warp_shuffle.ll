; Warp shuffles move a value between lanes: lane l of shfl.down(v, d)
; receives lane l + d's value (its own where l + d leaves the warp). The
; tangent moves the same way; the adjoint moves back: lane l takes lane
; l - d's adjoint (an indexed shuffle from laneid - d) where l >= d, and
; keeps its own where l + d >= 32. A broadcast (__shfl_sync from lane 0)
; sends the sum of the warp's adjoints (a butterfly of xor shuffles) to
; lane 0.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

define float @f(ptr %x) {
entry:
  %v = load float, ptr %x, align 4
  %d = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 4, i32 31)
  %b = call float @llvm.nvvm.shfl.sync.idx.f32(i32 -1, float %d, i32 0, i32 31)
  %p = fmul float %b, %v
  ret float %p
}

define float @grad(ptr %x, ptr %dx) {
  %r = call float (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx)
  ret float %r
}

define float @tangent(ptr %x, ptr %dx) {
  %r = call float (ptr, ...) @__ad_fwddiff(ptr @f, ptr %x, ptr %dx)
  ret float %r
}

declare float @__ad_autodiff(ptr, ...)
declare float @__ad_fwddiff(ptr, ...)
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)
declare float @llvm.nvvm.shfl.sync.idx.f32(i32, float, i32, i32)

; CHECK-LABEL: define internal void @f.ad.gradient(
; The broadcast's adjoint: a butterfly (xor 1, 2, 4, 8, 16), kept by lane 0.
; CHECK: %[[LANE:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK: xor i32 %[[LANE]], 1
; CHECK: call float @llvm.nvvm.shfl.sync.idx.f32(i32 -1,
; CHECK: xor i32 %[[LANE]], 16
; CHECK: call float @llvm.nvvm.shfl.sync.idx.f32(i32 -1,
; CHECK: icmp eq i32 %[[LANE]],
; shfl.down's adjoint: from lane - 4 where lane >= 4.
; CHECK: %[[LANE2:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK: %[[FROM:.*]] = sub i32 %[[LANE2]], 4
; CHECK: %[[SRC:.*]] = select i1 %{{.*}}, i32 %[[FROM]], i32 %[[LANE2]]
; CHECK: call float @llvm.nvvm.shfl.sync.idx.f32(i32 -1, float %{{.*}}, i32 %[[SRC]], i32 31)
; CHECK: ret void

; CHECK-LABEL: define internal {{.*}} @f.ad.tangent(
; CHECK: call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 4, i32 31)
; CHECK: call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %{{.*}}, i32 4, i32 31)
; CHECK: call float @llvm.nvvm.shfl.sync.idx.f32(i32 -1, float %{{.*}}, i32 0, i32 31)

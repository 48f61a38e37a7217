; What libdevice's bodies need (cuda-host-run --libdevice): cvt intrinsics
; round in their mode and convert saturating, d2i.hi takes the high word,
; and the inline PTX carry chains become exact wide integer arithmetic.
; RUN: %opt_cudahost -passes=cuda-host-device -S %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define internal i32 @cvt(double %x, float %f)
; CHECK: %[[R:.*]] = call double @llvm.floor.f64(double %x)
; CHECK: %rm = call i32 @llvm.fptosi.sat.i32.f64(double %[[R]])
; CHECK: %[[T:.*]] = call float @llvm.trunc.f32(float %f)
; CHECK: %rz = call i64 @llvm.fptoui.sat.i64.f32(float %[[T]])
; CHECK: %[[B:.*]] = bitcast double %x to i64
; CHECK: %[[S:.*]] = lshr i64 %[[B]], 32
; CHECK: %hi = trunc i64 %[[S]] to i32
define i32 @cvt(double %x, float %f) {
  %rm = call i32 @llvm.nvvm.d2i.rm(double %x)
  %rz = call i64 @llvm.nvvm.f2ull.rz(float %f)
  %hi = call i32 @llvm.nvvm.d2i.hi(double %x)
  %t = trunc i64 %rz to i32
  %s = add i32 %rm, %t
  %r = add i32 %s, %hi
  ret i32 %r
}

; CHECK-LABEL: define internal { i64, i64 } @mul128(i64 %a, i64 %b)
; CHECK: %[[A:.*]] = zext i64 %a to i128
; CHECK: %[[B:.*]] = zext i64 %b to i128
; CHECK: mul i128 %[[A]], %[[B]]
; CHECK-NOT: asm
define { i64, i64 } @mul128(i64 %a, i64 %b) {
  %p = call { i64, i64 } asm "{\0A\09.reg .u32 r0, r1, r2, r3, alo, ahi, blo, bhi;\0A\09mov.b64         {alo,ahi}, $2;   \0A\09mov.b64         {blo,bhi}, $3;   \0A\09mul.lo.u32      r0, alo, blo;    \0A\09mul.hi.u32      r1, alo, blo;    \0A\09mad.lo.cc.u32   r1, alo, bhi, r1;\0A\09madc.hi.u32     r2, alo, bhi,  0;\0A\09mad.lo.cc.u32   r1, ahi, blo, r1;\0A\09madc.hi.cc.u32  r2, ahi, blo, r2;\0A\09madc.hi.u32     r3, ahi, bhi,  0;\0A\09mad.lo.cc.u32   r2, ahi, bhi, r2;\0A\09addc.u32        r3, r3,  0;      \0A\09mov.b64         $0, {r0,r1};     \0A\09mov.b64         $1, {r2,r3};     \0A\09}", "=l,=l,l,l"(i64 %a, i64 %b)
  ret { i64, i64 } %p
}

declare i32 @llvm.nvvm.d2i.rm(double)
declare i64 @llvm.nvvm.f2ull.rz(float)
declare i32 @llvm.nvvm.d2i.hi(double)

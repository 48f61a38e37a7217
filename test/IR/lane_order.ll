; The post-AD pipeline computes a downward vector loop's lanes in memory
; order where they never meet (driver/LaneOrder.cpp), so its lane reversals
; go. Alone on hand-written vector loops: loads reversed, elementwise
; arithmetic with a splat and a constant, an accumulator, the result
; reversed back to be stored; where a reversed load meets one that is not,
; nothing changes.
; RUN: %opt_ad -passes=ad-lane-order %s -S | FileCheck %s

; The accumulator starts reversed (a constant: reversed in place), the
; constant operand is reversed, and the accumulator is reversed back once,
; after the loop, before its reduction.
; CHECK-LABEL: define float @downward(
; CHECK:       loop:
; CHECK-NEXT:    %i = phi
; CHECK-NEXT:    %acc = phi <4 x float> [ <float 0.000000e+00, float 0.000000e+00, float 0.000000e+00, float 1.000000e+00>, %entry ]
; CHECK-NOT:     shufflevector
; CHECK:         %p = fmul <4 x float> %va, %vb
; CHECK-NEXT:    %q = fadd <4 x float> %p, %s.splat
; CHECK-NEXT:    %w = fmul <4 x float> %q, <float 4.000000e+00, float 3.000000e+00, float 2.000000e+00, float 1.000000e+00>
; CHECK-NOT:     shufflevector
; CHECK:         store <4 x float> %w, ptr %pc
; CHECK:       exit:
; CHECK-NEXT:    %acc.next.lanes = shufflevector <4 x float> %acc.next, <4 x float> poison, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
; CHECK-NEXT:    call float @llvm.vector.reduce.fadd.v4f32(float 0.000000e+00, <4 x float> %acc.next.lanes)
define float @downward(ptr %a, ptr %b, ptr %c, float %s, i64 %n) {
entry:
  %s.ins = insertelement <4 x float> poison, float %s, i64 0
  %s.splat = shufflevector <4 x float> %s.ins, <4 x float> poison, <4 x i32> zeroinitializer
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi <4 x float> [ <float 1.0, float 0.0, float 0.0, float 0.0>, %entry ], [ %acc.next, %loop ]
  %k = sub i64 %n, %i
  %pa = getelementptr inbounds float, ptr %a, i64 %k
  %pb = getelementptr inbounds float, ptr %b, i64 %k
  %pc = getelementptr inbounds float, ptr %c, i64 %k
  %va = load <4 x float>, ptr %pa, align 4
  %ra = shufflevector <4 x float> %va, <4 x float> poison, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
  %vb = load <4 x float>, ptr %pb, align 4
  %rb = shufflevector <4 x float> %vb, <4 x float> poison, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
  %p = fmul <4 x float> %ra, %rb
  %q = fadd <4 x float> %p, %s.splat
  %w = fmul <4 x float> %q, <float 1.0, float 2.0, float 3.0, float 4.0>
  %acc.next = fadd <4 x float> %acc, %w
  %rw = shufflevector <4 x float> %w, <4 x float> poison, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
  store <4 x float> %rw, ptr %pc, align 4
  %i.next = add i64 %i, 4
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %sum = call float @llvm.vector.reduce.fadd.v4f32(float 0.0, <4 x float> %acc.next)
  ret float %sum
}

; CHECK-LABEL: define void @lanes_meet(
; CHECK:         %ra = shufflevector
; CHECK:         %p = fmul <4 x float> %ra, %vb
; CHECK:         %rp = shufflevector
; CHECK:         store <4 x float> %rp
define void @lanes_meet(ptr %a, ptr %b, ptr %c, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %k = sub i64 %n, %i
  %pa = getelementptr inbounds float, ptr %a, i64 %k
  %pb = getelementptr inbounds float, ptr %b, i64 %i
  %pc = getelementptr inbounds float, ptr %c, i64 %k
  %va = load <4 x float>, ptr %pa, align 4
  %ra = shufflevector <4 x float> %va, <4 x float> poison, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
  %vb = load <4 x float>, ptr %pb, align 4
  %p = fmul <4 x float> %ra, %vb
  %rp = shufflevector <4 x float> %p, <4 x float> poison, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
  store <4 x float> %rp, ptr %pc, align 4
  %i.next = add i64 %i, 4
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

declare float @llvm.vector.reduce.fadd.v4f32(float, <4 x float>)

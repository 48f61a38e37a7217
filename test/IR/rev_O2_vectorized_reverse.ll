; ad<O2> vectorizes the loops of a reverse sweep. out[b*C + i] = x[b*C + i]
; * w[i] over a (b, i) nest: the reverse inner loop adds dout * w[i] into
; dx[b*C + i] and dout * x[b*C + i] into dw[i], and is vectorized with
; runtime checks that dx, dw and dout do not overlap. The reverse runs the b
; loop backward, so LLVM's runtime checks hoisted out of the b loop would
; always send it to the scalar loop: they stay in the outer loop
; (PostADPipeline.cpp). No record is taped: indices come from the counted
; loops, x and w are loaded again (restrict).
; RUN: %opt_ad -passes='ad<O2>' -ad-inline-derivatives=false %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @scale_rows(ptr noalias %out, ptr noalias %x, ptr noalias %w, i32 %B, i32 %C) {
entry:
  %hasrows = icmp sgt i32 %B, 0
  br i1 %hasrows, label %rows.ph, label %exit

rows.ph:
  %hascols = icmp sgt i32 %C, 0
  %cols = zext i32 %C to i64
  %nrows = zext nneg i32 %B to i64
  br label %row

row:
  %b = phi i64 [ 0, %rows.ph ], [ %b.next, %row.latch ]
  br i1 %hascols, label %cols.ph, label %row.latch

cols.ph:
  %base = mul nuw nsw i64 %b, %cols
  br label %col

col:
  %i = phi i64 [ 0, %cols.ph ], [ %i.next, %col ]
  %k = add nuw nsw i64 %i, %base
  %px = getelementptr inbounds float, ptr %x, i64 %k
  %xv = load float, ptr %px, align 4
  %pw = getelementptr inbounds float, ptr %w, i64 %i
  %wv = load float, ptr %pw, align 4
  %y = fmul float %xv, %wv
  %po = getelementptr inbounds float, ptr %out, i64 %k
  store float %y, ptr %po, align 4
  %i.next = add nuw nsw i64 %i, 1
  %coldone = icmp eq i64 %i.next, %cols
  br i1 %coldone, label %row.latch, label %col

row.latch:
  %b.next = add nuw nsw i64 %b, 1
  %rowdone = icmp eq i64 %b.next, %nrows
  br i1 %rowdone, label %exit, label %row

exit:
  ret void
}

define void @caller(ptr %out, ptr %dout, ptr %x, ptr %dx, ptr %w, ptr %dw, i32 %B, i32 %C) {
  call void (ptr, ...) @__ad_autodiff(ptr @scale_rows, ptr %out, ptr %dout, ptr %x, ptr %dx, ptr %w, ptr %dw, i32 %B, i32 %C)
  ret void
}
declare void @__ad_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @scale_rows.ad.gradient(
; CHECK-NOT:     __ad_tape_push
; The forward sweep's copy of the loop is vectorized as the primal is; the
; reverse loop's checks come second, computed per row, and none tests the
; sign of the (negative) row stride.
; CHECK:       vector.memcheck{{[0-9]+}}:
; CHECK:         found.conflict
; CHECK-NOT:     stride.check
; CHECK:       vector.body{{[0-9]+}}:
; CHECK:         store <4 x float> zeroinitializer
; CHECK:         fmul <4 x float>
; CHECK:         fadd reassoc <4 x float>
; CHECK:         store <4 x float>
; CHECK:         ret void

; The post-AD pipeline issues a loop body's loads ahead of the stores they
; cannot read (driver/LoadsBeforeStores.cpp). Alone on two loops that each
; update two arrays: where scoped no-alias metadata shows the arrays apart,
; the second array's load (and the address it needs) moves above the first
; array's store; where nothing shows them apart, the order stays.
; RUN: %opt_ad -passes=ad-loads-before-stores %s -S | FileCheck %s
; End to end: the reverse loop that ad<O2> vectorizes reads every adjoint
; before it writes any (the matrix product's shape: dx += dout * w,
; dw += dout * x).
; RUN: %opt_ad -passes='ad<O2>' -ad-inline-derivatives=false %s -S | FileCheck %s --check-prefix=REVERSE

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define void @two_updates_apart(
; CHECK:       loop:
; CHECK:         %a.old = load float, ptr %pa{{.*}}!alias.scope
; CHECK-NOT:     store
; CHECK:         %pb = getelementptr inbounds float, ptr %b, i64 %i
; CHECK-NEXT:    %b.old = load float, ptr %pb{{.*}}!alias.scope
; CHECK-NEXT:    store float %a.new, ptr %pa
; CHECK:         store float %b.new, ptr %pb
define void @two_updates_apart(ptr %a, ptr %b, float %d, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pa = getelementptr inbounds float, ptr %a, i64 %i
  %a.old = load float, ptr %pa, align 4, !alias.scope !0, !noalias !3
  %a.new = fadd float %a.old, %d
  store float %a.new, ptr %pa, align 4, !alias.scope !0, !noalias !3
  %pb = getelementptr inbounds float, ptr %b, i64 %i
  %b.old = load float, ptr %pb, align 4, !alias.scope !3, !noalias !0
  %b.new = fadd float %b.old, %d
  store float %b.new, ptr %pb, align 4, !alias.scope !3, !noalias !0
  %i.next = add nuw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @two_updates_may_overlap(
; CHECK:       loop:
; CHECK:         store float %a.new, ptr %pa
; CHECK:         %b.old = load float, ptr %pb
define void @two_updates_may_overlap(ptr %a, ptr %b, float %d, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pa = getelementptr inbounds float, ptr %a, i64 %i
  %a.old = load float, ptr %pa, align 4
  %a.new = fadd float %a.old, %d
  store float %a.new, ptr %pa, align 4
  %pb = getelementptr inbounds float, ptr %b, i64 %i
  %b.old = load float, ptr %pb, align 4
  %b.new = fadd float %b.old, %d
  store float %b.new, ptr %pb, align 4
  %i.next = add nuw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

!0 = !{!1}
!1 = distinct !{!1, !2, !"a"}
!2 = distinct !{!2, !"updates"}
!3 = !{!4}
!4 = distinct !{!4, !2, !"b"}

; out[b*C + i] = x[b*C + i] * w[i] over a (b, i) nest.
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

; The reverse loop is the vectorized loop after the runtime checks; its five
; loads (w, x, dout, dx, dw) all come before its three stores (dout reset,
; dx, dw).
; REVERSE-LABEL: define internal void @scale_rows.ad.gradient(
; REVERSE:       vector.memcheck{{[0-9]+}}:
; REVERSE:       vector.body{{[0-9]+}}:
; REVERSE-COUNT-5: load <4 x float>
; REVERSE-NOT:     {{store|br }}
; REVERSE:         store <4 x float> zeroinitializer
; REVERSE-NOT:     = load
; REVERSE:         store <4 x float>
; REVERSE-NOT:     = load
; REVERSE:         store <4 x float>
; REVERSE-NOT:     = load
; REVERSE:         br i1

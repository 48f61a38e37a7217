; A load whose memory a later store could only change if two slices of one
; buffer overlapped (y = buf + off, x = buf): the gradient's canonical primal
; is versioned (primal/ReloadVersioning.cpp). Before the loop it compares the
; slices' byte ranges (here [0, 4n) for the loads and [4 off, 4 off + 4n)
; for the stores, or one iteration's apart), freezes the answer and branches
; to a copy whose loads carry !ad.unchanged, or to the original. The copy's
; reverse loop reads x[i] again from buf; the original's reads it from the
; tape.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @square_into(ptr %buf, i64 %off, i64 %n) {
entry:
  %y = getelementptr float, ptr %buf, i64 %off
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %exit

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %px = getelementptr inbounds float, ptr %buf, i64 %i
  %x = load float, ptr %px, align 4
  %sq = fmul float %x, %x
  %py = getelementptr inbounds float, ptr %y, i64 %i
  store float %sq, ptr %py, align 4
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define void @caller(ptr %buf, ptr %dbuf, i64 %off, i64 %n) {
entry:
  call void (ptr, ...) @__ad_autodiff_void(ptr @square_into, ptr %buf, ptr %dbuf, i64 %off, i64 %n)
  ret void
}

declare void @__ad_autodiff_void(ptr, ...)

; CHECK-LABEL: define internal void @square_into.ad.gradient(
; The checks, then one branch to the copy or the original.
; CHECK:         %ad.nooverwrite{{[0-9]*}} = icmp sle i64
; CHECK:         [[OK:%ad.nooverwrite[0-9]*]] = freeze i1
; CHECK-NEXT:    br i1 [[OK]], label %[[KEPT:.*\.kept]], label
; The original reserves the loop's records before it (TapeReservation.h):
; max(n, 0) iterations of 4 bytes, one allocation instead of growing; the
; product saturates instead of wrapping.
; CHECK:       loop.preheader:
; CHECK:         [[TRIPS:%.*]] = call i64 @llvm.smax.i64(i64 %2, i64 0)
; CHECK-NEXT:    [[PROD:%.*]] = call { i64, i1 } @llvm.umul.with.overflow.i64(i64 [[TRIPS]], i64 4)
; CHECK-NEXT:    [[LOW:%.*]] = extractvalue { i64, i1 } [[PROD]], 0
; CHECK-NEXT:    [[OVER:%.*]] = extractvalue { i64, i1 } [[PROD]], 1
; CHECK-NEXT:    %tape.bytes = select i1 [[OVER]], i64 -1, i64 [[LOW]]
; CHECK-NEXT:    call void @__ad_tape_reserve(ptr %tape, i64 %tape.bytes)
; The original's forward loop tapes x.
; CHECK:       loop:
; CHECK:         %x = load float
; CHECK:         call ptr @__ad_tape_push_unchecked(
; CHECK:         store float %x, ptr
; The copy's forward loop does not; its x is marked.
; CHECK:       loop.kept:
; CHECK-NOT:     __ad_tape_push
; CHECK:         load float, ptr {{.*}}, !ad.unchanged
; CHECK-NOT:     __ad_tape_push
; CHECK:         br i1
; Its reverse loop reads x from buf again, not from the tape.
; CHECK:       rev.loop.kept:
; CHECK-NOT:     __ad_tape_pop
; CHECK:         load float, ptr {{.*}}
; CHECK-NOT:     __ad_tape_pop
; CHECK:         br

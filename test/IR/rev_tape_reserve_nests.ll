; The tape reservation's arithmetic for nests whose inner counts are not
; fixed while the nest runs (primal/TapeReservation.cpp,
; docs/internals/REVERSE.md "Tape reservation").
; - @tri, for (i = 0; i < n; i++) for (j = 0; j <= i; j++): the inner loop
;   runs {1,+,1} times on the outer iteration i; summed over the N outer
;   iterations (N the outer count clamped at 0, as the outer loop's own
;   runs) in closed form, N + N(N-1)/2, in i128 (the product of two 32-bit
;   counts), clamped at 0 and saturated at 2^64 - 1, then times the
;   record's 8 bytes, saturating.
; - @guarded: the inner loop runs on an outer iteration where %kpos, computed
;   before the nest, holds (a guard LLVM hoisted out of the loop): its runs
;   are zext(%kpos) * k per outer iteration, which is 0, not zext(k), when
;   k <= 0.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

declare double @sin(double)
declare double @__ad_autodiff(ptr, ...)

; for (i = 0; i < n; i++) for (j = 0; j <= i; j++) s = sin(s + x[j]);
define double @tri(ptr %x, i32 %n) {
entry:
  %pos = icmp sgt i32 %n, 0
  br i1 %pos, label %outer.ph, label %exit

outer.ph:
  %n1 = add nuw i32 %n, 1
  %count = zext i32 %n1 to i64
  br label %outer

outer:
  %i1 = phi i64 [ 1, %outer.ph ], [ %i1.next, %outer.latch ]
  %s.outer = phi double [ 0.0, %outer.ph ], [ %sin, %outer.latch ]
  br label %inner

inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %s = phi double [ %s.outer, %outer ], [ %sin, %inner ]
  %p = getelementptr inbounds double, ptr %x, i64 %j
  %v = load double, ptr %p
  %add = fadd double %s, %v
  %sin = call double @sin(double %add)
  %j.next = add nuw nsw i64 %j, 1
  %inner.done = icmp eq i64 %j.next, %i1
  br i1 %inner.done, label %outer.latch, label %inner

outer.latch:
  %i1.next = add nuw nsw i64 %i1, 1
  %outer.done = icmp eq i64 %i1.next, %count
  br i1 %outer.done, label %exit, label %outer

exit:
  %r = phi double [ 0.0, %entry ], [ %sin, %outer.latch ]
  ret double %r
}

; for (i = 0; i < n; i++) if (k > 0) for (j = 0; j < k; j++) s = sin(s + x[j]);
; the condition computed once, before the nest (as LLVM hoists a guard).
define double @guarded(ptr %x, i32 %n, i32 %k) {
entry:
  %pos = icmp sgt i32 %n, 0
  %kpos = icmp sgt i32 %k, 0
  %kk = zext i32 %k to i64
  br i1 %pos, label %outer.ph, label %exit

outer.ph:
  %count = zext i32 %n to i64
  br label %outer

outer:
  %i = phi i64 [ 0, %outer.ph ], [ %i.next, %outer.latch ]
  %s.outer = phi double [ 0.0, %outer.ph ], [ %s.latch, %outer.latch ]
  br i1 %kpos, label %inner.ph, label %outer.latch

inner.ph:
  br label %inner

inner:
  %j = phi i64 [ 0, %inner.ph ], [ %j.next, %inner ]
  %s = phi double [ %s.outer, %inner.ph ], [ %sin, %inner ]
  %p = getelementptr inbounds double, ptr %x, i64 %j
  %v = load double, ptr %p
  %add = fadd double %s, %v
  %sin = call double @sin(double %add)
  %j.next = add nuw nsw i64 %j, 1
  %inner.done = icmp eq i64 %j.next, %kk
  br i1 %inner.done, label %inner.exit, label %inner

inner.exit:
  br label %outer.latch

outer.latch:
  %s.latch = phi double [ %s.outer, %outer ], [ %sin, %inner.exit ]
  %i.next = add nuw nsw i64 %i, 1
  %outer.done = icmp eq i64 %i.next, %count
  br i1 %outer.done, label %exit, label %outer

exit:
  %r = phi double [ 0.0, %entry ], [ %s.latch, %outer.latch ]
  ret double %r
}

define void @callers(ptr %x, ptr %dx, i32 %n, i32 %k) {
  %a = call double (ptr, ...) @__ad_autodiff(ptr @tri, ptr %x, ptr %dx, i32 %n)
  %b = call double (ptr, ...) @__ad_autodiff(ptr @guarded, ptr %x, ptr %dx, i32 %n, i32 %k)
  ret void
}

; CHECK-LABEL: define internal void @guarded.ad.gradient(
; CHECK: %kpos = icmp sgt i32 %2, 0
; CHECK: %kk = zext i32 %2 to i64
; CHECK: outer.ph:
; CHECK: %count = zext i32 %1 to i64
; CHECK: %[[ON:[0-9]+]] = zext i1 %kpos to i64
; CHECK: %[[RUNS:[0-9]+]] = mul i64 %[[ON]], %kk
; CHECK: call { i64, i1 } @llvm.umul.with.overflow.i64(i64 %count, i64 %[[RUNS]])
; CHECK: %[[ITER:ad.iterations[0-9]*]] = select i1 %{{[0-9]+}}, i64 -1, i64 %{{[0-9]+}}
; CHECK: call { i64, i1 } @llvm.umul.with.overflow.i64(i64 %[[ITER]], i64 8)
; CHECK: %[[BYTES:tape.bytes[0-9]*]] = select i1 %{{[0-9]+}}, i64 -1, i64 %{{[0-9]+}}
; CHECK-NEXT: call void @__ad_tape_reserve(ptr %tape, i64 %[[BYTES]])
; CHECK-NEXT: br label %outer

; CHECK-LABEL: define internal void @tri.ad.gradient(
; CHECK: outer.ph:
; CHECK: %[[N:smax[0-9]*]] = call i64 @llvm.smax.i64(i64 %{{[0-9]+}}, i64 0)
; CHECK-NEXT: %[[N128:[0-9]+]] = zext nneg i64 %[[N]] to i128
; CHECK-NEXT: %[[A:[0-9]+]] = zext nneg i64 %[[N]] to i129
; CHECK-NEXT: %[[NM1:[0-9]+]] = add nsw i128 %[[N128]], -1
; CHECK-NEXT: %[[B:[0-9]+]] = zext i128 %[[NM1]] to i129
; CHECK-NEXT: %[[PROD:[0-9]+]] = mul i129 %[[A]], %[[B]]
; CHECK-NEXT: %[[HALF:[0-9]+]] = lshr i129 %[[PROD]], 1
; CHECK-NEXT: %[[HALF128:[0-9]+]] = trunc i129 %[[HALF]] to i128
; CHECK-NEXT: %[[SUM:[0-9]+]] = add i128 %[[N128]], %[[HALF128]]
; CHECK-NEXT: %[[POS:smax[0-9]*]] = call i128 @llvm.smax.i128(i128 %[[SUM]], i128 0)
; CHECK-NEXT: %[[SAT:umin[0-9]*]] = call i128 @llvm.umin.i128(i128 %[[POS]], i128 18446744073709551615)
; CHECK-NEXT: %[[RUNS64:[0-9]+]] = trunc i128 %[[SAT]] to i64
; CHECK-NEXT: call { i64, i1 } @llvm.umul.with.overflow.i64(i64 %[[RUNS64]], i64 8)
; (The outer loop records nothing: its inner loop's last index is counted.)
; CHECK: call void @__ad_tape_reserve(ptr %tape, i64 %tape.bytes{{[0-9]*}})
; CHECK-NEXT: br label %outer

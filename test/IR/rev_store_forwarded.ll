; A value an earlier loop stored (xc[i] = x[i] - mu[c][i], in a buffer the
; next pass of the outer loop rewrites) is loaded by the next loop: the
; gradient's canonical primal evaluates x[j] - mu[c][j] again where xc[j] was
; loaded (primal/StoreForwarding.cpp), so the reverse sweep reloads x and mu
; and the loop records nothing; xc is no longer read, and its stores go. In @overwritten a store to xc[0] between the
; loops makes the load differ from what was stored there: it stays, and its
; value is recorded once per iteration.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s
; RUN: %opt_ad -passes=ad %s -disable-output -pass-remarks=ad 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not="values an earlier loop stored"
; REMARK: gradient of 'centered' recomputes 1 load(s) of values an earlier loop stored

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__ad_const = external global i32

define double @centered(ptr noalias %x, ptr noalias %mu, ptr noalias %q, i64 %n, i64 %k) {
entry:
  %bytes = shl i64 %n, 3
  %xc = call noalias ptr @malloc(i64 %bytes)
  br label %comp

comp:
  %c = phi i64 [ 0, %entry ], [ %c.next, %comp.latch ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %comp.latch ]
  %row = mul i64 %c, %n
  %murow = getelementptr double, ptr %mu, i64 %row
  %qrow = getelementptr double, ptr %q, i64 %row
  br label %sub

sub:
  %i = phi i64 [ 0, %comp ], [ %i.next, %sub ]
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %vx = load double, ptr %px
  %pm = getelementptr inbounds double, ptr %murow, i64 %i
  %vm = load double, ptr %pm
  %diff = fsub double %vx, %vm
  %pc = getelementptr inbounds double, ptr %xc, i64 %i
  store double %diff, ptr %pc
  %i.next = add nuw nsw i64 %i, 1
  %sub.done = icmp eq i64 %i.next, %n
  br i1 %sub.done, label %dot.ph, label %sub

dot.ph:
  br label %dot

dot:
  %j = phi i64 [ 0, %dot.ph ], [ %j.next, %dot ]
  %acc = phi double [ %s, %dot.ph ], [ %acc.next, %dot ]
  %pq = getelementptr inbounds double, ptr %qrow, i64 %j
  %vq = load double, ptr %pq
  %pxc = getelementptr inbounds double, ptr %xc, i64 %j
  %xcj = load double, ptr %pxc
  %t = fmul double %vq, %xcj
  %acc.next = fadd double %acc, %t
  %j.next = add nuw nsw i64 %j, 1
  %dot.done = icmp eq i64 %j.next, %n
  br i1 %dot.done, label %comp.latch, label %dot

comp.latch:
  %s.next = phi double [ %acc.next, %dot ]
  %c.next = add nuw nsw i64 %c, 1
  %comp.done = icmp eq i64 %c.next, %k
  br i1 %comp.done, label %exit, label %comp

exit:
  call void @free(ptr %xc)
  ret double %s.next
}

define double @overwritten(ptr noalias %x, ptr noalias %mu, ptr noalias %q, i64 %n, i64 %k) {
entry:
  %bytes = shl i64 %n, 3
  %xc = call noalias ptr @malloc(i64 %bytes)
  br label %comp

comp:
  %c = phi i64 [ 0, %entry ], [ %c.next, %comp.latch ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %comp.latch ]
  %row = mul i64 %c, %n
  %murow = getelementptr double, ptr %mu, i64 %row
  %qrow = getelementptr double, ptr %q, i64 %row
  br label %sub

sub:
  %i = phi i64 [ 0, %comp ], [ %i.next, %sub ]
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %vx = load double, ptr %px
  %pm = getelementptr inbounds double, ptr %murow, i64 %i
  %vm = load double, ptr %pm
  %diff = fsub double %vx, %vm
  %pc = getelementptr inbounds double, ptr %xc, i64 %i
  store double %diff, ptr %pc
  %i.next = add nuw nsw i64 %i, 1
  %sub.done = icmp eq i64 %i.next, %n
  br i1 %sub.done, label %dot.ph, label %sub

dot.ph:
  store double 0.0, ptr %xc
  br label %dot

dot:
  %j = phi i64 [ 0, %dot.ph ], [ %j.next, %dot ]
  %acc = phi double [ %s, %dot.ph ], [ %acc.next, %dot ]
  %pq = getelementptr inbounds double, ptr %qrow, i64 %j
  %vq = load double, ptr %pq
  %pxc = getelementptr inbounds double, ptr %xc, i64 %j
  %xcj = load double, ptr %pxc
  %t = fmul double %vq, %xcj
  %acc.next = fadd double %acc, %t
  %j.next = add nuw nsw i64 %j, 1
  %dot.done = icmp eq i64 %j.next, %n
  br i1 %dot.done, label %comp.latch, label %dot

comp.latch:
  %s.next = phi double [ %acc.next, %dot ]
  %c.next = add nuw nsw i64 %c, 1
  %comp.done = icmp eq i64 %c.next, %k
  br i1 %comp.done, label %exit, label %comp

exit:
  call void @free(ptr %xc)
  ret double %s.next
}

define void @caller(ptr %x, ptr %mu, ptr %dmu, ptr %q, ptr %dq, i64 %n, i64 %k) {
entry:
  %const = load i32, ptr @__ad_const
  call void (ptr, ...) @__ad_autodiff_void(ptr @centered, i32 %const, ptr %x, ptr %mu, ptr %dmu, ptr %q, ptr %dq, i64 %n, i64 %k)
  call void (ptr, ...) @__ad_autodiff_void(ptr @overwritten, i32 %const, ptr %x, ptr %mu, ptr %dmu, ptr %q, ptr %dq, i64 %n, i64 %k)
  ret void
}

declare noalias ptr @malloc(i64)
declare void @free(ptr)
declare void @__ad_autodiff_void(ptr, ...)

; The forward loop loads x[j] and mu[c][j] instead of xc[j] and records
; nothing; its reverse recomputes the difference. Nothing reads xc any more,
; so the stores into it are gone too, and their adjoints with them.
; CHECK-LABEL: define internal void @centered.ad.gradient(
; CHECK-LABEL: {{^}}sub:
; CHECK-NOT:     store double
; CHECK-LABEL: {{^}}dot.ph:
; CHECK-LABEL: {{^}}dot:
; CHECK-NOT:     load double, ptr %pxc
; CHECK:         %vx.fwd = load double, ptr %px.fwd
; CHECK:         %vm.fwd = load double, ptr %pm.fwd
; CHECK:         %diff.fwd = fsub double %vx.fwd, %vm.fwd
; CHECK:         %t = fmul double %vq, %diff.fwd
; CHECK-NOT:     __ad_tape_push
; CHECK-LABEL: {{^}}rev.sub:
; CHECK-NOT:     load double
; CHECK:         br i1
; CHECK-LABEL: {{^}}rev.dot:
; CHECK-NOT:     __ad_tape_pop
; CHECK:         %vx.fwd.re = load double
; CHECK:         %vm.fwd.re = load double
; CHECK:         %diff.fwd.re = fsub double %vx.fwd.re, %vm.fwd.re
; CHECK:         fmul double %diff.fwd.re, %t.d
; CHECK-LABEL: {{^}}rev.exit

; CHECK-LABEL: define internal void @overwritten.ad.gradient(
; CHECK-LABEL: {{^}}dot:
; CHECK:         %xcj = load double, ptr %pxc
; CHECK:         %t = fmul double %vq, %xcj
; CHECK:         call ptr @__ad_tape_push_unchecked(ptr %tape, i64 8)
; CHECK-LABEL: {{^}}rev.dot:
; CHECK:         call ptr @__ad_tape_pop(ptr %tape, i64 8)

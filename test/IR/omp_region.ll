; A parallel region (clang's __kmpc_fork_call of an outlined body) with a
; worksharing loop and a `+` reduction, differentiated in both modes.
; - The gradient forks a team for the body's augmented forward sweep and
;   another for its adjoint: each thread gets its own tape from a table
;   (calloc'd, its address pushed on the caller's tape), and the adjoint's
;   team asks for as many threads as the forward one had.
; - The reduction protocol (__kmpc_reduce_nowait, which may combine the
;   threads' copies inside libomp) becomes a critical section: the
;   augmented body takes the lock and a ticket; the adjoint waits for its
;   turn where the section ends and passes the turn on at the ticket.
; - The adjoint adds into memory other threads also update atomically (the
;   shared sum's shadow); x's shadow, whose every element one iteration
;   owns, gets plain adds; the tangent adds nothing atomically.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

%struct.ident_t = type { i32, i32, i32, i32, ptr }
@loc = private constant %struct.ident_t zeroinitializer
@.gomp_critical_user_.reduction.var = common global [8 x i32] zeroinitializer, align 8

; s = sum_i x[i]^2, the loop shared out by libomp (schedule(static)).
define double @f(ptr %x, i32 %n) {
entry:
  %s = alloca double, align 8
  %xa = alloca ptr, align 8
  %na = alloca i32, align 4
  store double 0.0, ptr %s, align 8
  store ptr %x, ptr %xa, align 8
  store i32 %n, ptr %na, align 4
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @loc, i32 3, ptr @f.omp_outlined, ptr %na, ptr %xa, ptr %s)
  %r = load double, ptr %s, align 8
  ret double %r
}

define internal void @f.omp_outlined(ptr noalias %gtid.p, ptr noalias %btid.p, ptr %na, ptr %xa, ptr %s) {
entry:
  %lb = alloca i32, align 4
  %ub = alloca i32, align 4
  %st = alloca i32, align 4
  %last = alloca i32, align 4
  %priv = alloca double, align 8
  %list = alloca [1 x ptr], align 8
  %gtid = load i32, ptr %gtid.p, align 4
  %n = load i32, ptr %na, align 4
  %nm1 = sub i32 %n, 1
  store i32 0, ptr %lb, align 4
  store i32 %nm1, ptr %ub, align 4
  store i32 1, ptr %st, align 4
  store i32 0, ptr %last, align 4
  store double 0.0, ptr %priv, align 8
  call void @__kmpc_for_static_init_4(ptr @loc, i32 %gtid, i32 34, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l = load i32, ptr %lb, align 4
  %u0 = load i32, ptr %ub, align 4
  %u = call i32 @llvm.smin.i32(i32 %u0, i32 %nm1)
  %x = load ptr, ptr %xa, align 8
  %any = icmp sle i32 %l, %u
  br i1 %any, label %body, label %exit

body:
  %i = phi i32 [ %l, %entry ], [ %inext, %body ]
  %i64 = sext i32 %i to i64
  %p = getelementptr inbounds double, ptr %x, i64 %i64
  %v = load double, ptr %p, align 8
  %v2 = fmul double %v, %v
  %acc = load double, ptr %priv, align 8
  %acc2 = fadd double %acc, %v2
  store double %acc2, ptr %priv, align 8
  %inext = add nsw i32 %i, 1
  %more = icmp sle i32 %inext, %u
  br i1 %more, label %body, label %exit

exit:
  call void @__kmpc_for_static_fini(ptr @loc, i32 %gtid)
  store ptr %priv, ptr %list, align 8
  %red = call i32 @__kmpc_reduce_nowait(ptr @loc, i32 %gtid, i32 1, i64 8, ptr %list, ptr @f.reduce, ptr @.gomp_critical_user_.reduction.var)
  switch i32 %red, label %done [
    i32 1, label %locked
    i32 2, label %atomic
  ]

locked:
  %a = load double, ptr %s, align 8
  %b = load double, ptr %priv, align 8
  %sum = fadd double %a, %b
  store double %sum, ptr %s, align 8
  call void @__kmpc_end_reduce_nowait(ptr @loc, i32 %gtid, ptr @.gomp_critical_user_.reduction.var)
  br label %done

atomic:
  %b2 = load double, ptr %priv, align 8
  %old = atomicrmw fadd ptr %s, double %b2 monotonic, align 8
  br label %done

done:
  ret void
}

; libomp may call this to combine two threads' copies; the canonical primal
; never lets it.
define internal void @f.reduce(ptr %lhs, ptr %rhs) {
  %l = load ptr, ptr %lhs, align 8
  %r = load ptr, ptr %rhs, align 8
  %a = load double, ptr %l, align 8
  %b = load double, ptr %r, align 8
  %c = fadd double %a, %b
  store double %c, ptr %l, align 8
  ret void
}

define void @grad(ptr %x, ptr %dx, i32 %n) {
  call void (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx, i32 %n)
  ret void
}

define double @tangent(ptr %x, ptr %tx, i32 %n) {
  %t = call double (ptr, ...) @__ad_fwddiff(ptr @f, ptr %x, ptr %tx, i32 %n)
  ret double %t
}

declare void @__kmpc_fork_call(ptr, i32, ptr, ...)
declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32)
declare void @__kmpc_for_static_fini(ptr, i32)
declare i32 @__kmpc_reduce_nowait(ptr, i32, i32, i64, ptr, ptr, ptr)
declare void @__kmpc_end_reduce_nowait(ptr, i32, ptr)
declare i32 @llvm.smin.i32(i32, i32)
declare void @__ad_autodiff(ptr, ...)
declare double @__ad_fwddiff(ptr, ...)

; The gradient: a table of tapes, its address on the caller's tape, a team
; for the augmented body; then the same number of threads for the adjoint.
; CHECK-LABEL: define internal void @f.ad.gradient(
; CHECK: %[[MAX:.*]] = call i32 @omp_get_max_threads()
; CHECK: %[[TAPES:.*]] = call ptr @calloc(i64 1,
; CHECK: %[[REC:.*]] = call ptr @__ad_tape_push(ptr %tape, i64 8)
; CHECK: store ptr %[[TAPES]], ptr %[[REC]]
; CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @loc, i32 1, ptr @f.omp_outlined.ad.values.2.3.4.ad.augmented.team, ptr %ad.omp.args)
; CHECK: %[[POP:.*]] = call ptr @__ad_tape_pop(ptr %tape, i64 8)
; CHECK: %[[TABLE:.*]] = load ptr, ptr %[[POP]]
; CHECK: %[[GTID:.*]] = call i32 @__kmpc_global_thread_num(ptr @loc)
; CHECK: call void @__kmpc_push_num_threads(ptr @loc, i32 %[[GTID]],
; CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @loc, i32 1, ptr @f.omp_outlined.ad.values.2.3.4.ad.adjoint.team,
; CHECK: call void @free(ptr %[[TABLE]])

; The augmented body combines its copy under the lock, taking a ticket;
; libomp's reduction protocol is gone.
; CHECK-LABEL: define internal void @f.omp_outlined.ad.values.2.3.4.ad.augmented(
; CHECK-NOT: __kmpc_reduce
; CHECK: call void @__kmpc_critical(ptr @loc, i32 %gtid, ptr @.gomp_critical_user_.reduction.var)
; CHECK-NEXT: %ad.ticket = call i64 @__ad_omp_ticket(ptr @.gomp_critical_user_.reduction.var.ad.turn)
; CHECK: call void @__ad_omp_turn_end(ptr @.gomp_critical_user_.reduction.var.ad.turn, i64 %ad.ticket)
; CHECK-NEXT: call void @__kmpc_end_critical(
; CHECK-NOT: __kmpc_reduce
; CHECK: ret void

; The adjoint: the shared sum's shadow gets atomic adds; x[i] belongs to
; iteration i of the worksharing loop (analysis/IterationOwnership.h), so to
; the thread that runs it: plain adds into x's shadow itself, no private
; buffer; the section's reverse waits for its turn and then passes it on.
; CHECK-LABEL: define internal void @f.omp_outlined.ad.values.2.3.4.ad.adjoint(
; CHECK: %[[XD:.*]] = load double, ptr %p.shadow.re
; CHECK-NEXT: %[[XS:.*]] = fadd reassoc double %[[XD]], %v.d
; CHECK-NEXT: store double %[[XS]], ptr %p.shadow.re
; CHECK: rev.exit:
; CHECK: call void @__ad_omp_pass_turn(ptr @.gomp_critical_user_.reduction.var.ad.turn, i64 %ad.ticket.saved)
; CHECK: rev.locked:
; CHECK-NEXT: call void @__ad_omp_wait_turn(ptr @.gomp_critical_user_.reduction.var.ad.turn, i64 %ad.ticket.saved)
; CHECK: atomicrmw fadd ptr %.saved{{[0-9]+}}, double %a.d monotonic
; CHECK-NEXT: br label %rev.exit

; The tangent forks one team, with no tickets and no atomic adds.
; CHECK-LABEL: define internal { double, double } @f.ad.tangent(
; CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @loc, i32 1, ptr @f.omp_outlined.ad.values.2.3.4.ad.tangent.team, ptr %ad.omp.args)
; CHECK-LABEL: define internal void @f.omp_outlined.ad.values.2.3.4.ad.tangent(
; CHECK-NOT: __ad_omp_
; CHECK-NOT: atomicrmw
; CHECK: ret void

; Each thread's entry: thread t's tape is at 24 + 24 t in the table; the
; augmented team's thread 0 records the team's size, the adjoint's checks
; it and frees the thread's tape. While the body runs, the thread's
; critical sections take their tickets from the table's counter.
; CHECK-LABEL: define internal void @f.omp_outlined.ad.values.2.3.4.ad.augmented.team(
; CHECK: %ad.omp.thread = call i32 @omp_get_thread_num()
; CHECK: icmp ule i64 %ad.omp.threads,
; CHECK: ad.omp.fail:
; CHECK-NEXT: call i64 @write(i32 2, ptr @ad.omp.why
; CHECK-NEXT: call void @abort()
; CHECK: ad.omp.size:
; CHECK: store i64 %ad.omp.threads, ptr
; CHECK: %ad.omp.tape = getelementptr i8, ptr
; CHECK: call void @f.omp_outlined.ad.values.2.3.4.ad.augmented(ptr %0, ptr %1,
; CHECK-SAME: ptr %ad.omp.tape)
; CHECK-LABEL: define internal void @f.omp_outlined.ad.values.2.3.4.ad.adjoint.team(
; CHECK: %[[N:.*]] = load i64, ptr
; CHECK: icmp eq i64 %ad.omp.threads, %[[N]]
; CHECK: %[[TURN:.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__ad_omp_team_turn)
; CHECK: store ptr %{{.*}}, ptr %[[TURN]]
; CHECK-NEXT: call void @f.omp_outlined.ad.values.2.3.4.ad.adjoint(ptr %ad.omp.tape)
; CHECK-NEXT: store ptr %{{.*}}, ptr %[[TURN]]
; CHECK-NEXT: call void @__ad_tape_free(ptr %ad.omp.tape)
; CHECK-NOT: __ad_omp_sum_private
; CHECK: ad.omp.fail:
; CHECK-NEXT: call i64 @write(i32 2, ptr @ad.omp.why
; CHECK-NEXT: call void @abort()

; Reverse mode through heap memory: malloc gets a zeroed shadow from calloc
; right after it; the shadow lives until the reverse sweep reaches the
; malloc, where it is freed, and so does the primal buffer: its free, which
; runs on every path, is deferred to there (primal/DeferredFrees.h), so the
; reverse sweep could read the buffer back.
; f(x) = buf[0] + buf[1] with buf = {x, x*x}: df/dx = 1 + 2x.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x) {
entry:
  %buf = call ptr @malloc(i64 16)
  store double %x, ptr %buf
  %q = getelementptr inbounds double, ptr %buf, i64 1
  %x2 = fmul double %x, %x
  store double %x2, ptr %q
  %a = load double, ptr %buf
  %b = load double, ptr %q
  %s = fadd double %a, %b
  call void @free(ptr %buf)
  ret double %s
}

declare ptr @malloc(i64)
declare void @free(ptr)

define double @caller(double %x) {
entry:
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, double %x)
  ret double %g
}

declare double @__ad_autodiff(ptr, ...)

; CHECK-LABEL: define internal { double } @f.ad.gradient(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK:         %buf = call ptr @malloc(i64 16)
; CHECK-NEXT:    %shadow.alloc = call ptr @calloc(i64 1, i64 16)
; CHECK-NEXT:    store double [[X]], ptr %buf
; CHECK-NEXT:    %q = getelementptr inbounds double, ptr %buf, i64 1
; CHECK-NEXT:    %q.shadow = getelementptr inbounds double, ptr %shadow.alloc, i64 1
; CHECK-NOT:     call void @free
; CHECK-LABEL: rev.entry:
; load b from q: *q.shadow += db
; CHECK:         %b.d = load double, ptr %b.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %b.adj
; CHECK-NEXT:    [[Q0:%.*]] = load double, ptr %q.shadow
; CHECK-NEXT:    [[Q1:%.*]] = fadd reassoc double [[Q0]], %b.d
; CHECK-NEXT:    store double [[Q1]], ptr %q.shadow
; load a from buf: *shadow.alloc += da
; CHECK-NEXT:    %a.d = load double, ptr %a.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %a.adj
; CHECK-NEXT:    [[B0:%.*]] = load double, ptr %shadow.alloc
; CHECK-NEXT:    [[B1:%.*]] = fadd reassoc double [[B0]], %a.d
; CHECK-NEXT:    store double [[B1]], ptr %shadow.alloc
; store x2 to q: dx2 += *q.shadow; *q.shadow = 0
; CHECK-NEXT:    [[Q2:%.*]] = load double, ptr %q.shadow
; CHECK-NEXT:    store double 0.000000e+00, ptr %q.shadow
; CHECK-NEXT:    [[X20:%.*]] = load double, ptr %x2.adj
; CHECK-NEXT:    [[X21:%.*]] = fadd reassoc double [[X20]], [[Q2]]
; CHECK-NEXT:    store double [[X21]], ptr %x2.adj
; x2 = x * x
; CHECK:         fmul double [[X]], %x2.d
; CHECK:         fmul double [[X]], %x2.d
; store x to buf: dx += *shadow.alloc; *shadow.alloc = 0
; CHECK:         [[B2:%.*]] = load double, ptr %shadow.alloc
; CHECK-NEXT:    store double 0.000000e+00, ptr %shadow.alloc
; CHECK-NEXT:    [[XA0:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    [[XA1:%.*]] = fadd reassoc double [[XA0]], [[B2]]
; CHECK-NEXT:    store double [[XA1]], ptr %x.adj
; The malloc, reached last: the shadow is freed, then the buffer.
; CHECK-NEXT:    call void @free(ptr %shadow.alloc)
; CHECK-NEXT:    call void @free(ptr %buf)
; CHECK-NEXT:    br label %rev.exit

; Pointers stored in duplicated memory: storing buf into s->ptr also stores
; buf's shadow into the shadow struct, and loading the pointer back loads its
; shadow from there, so the adjoint of the value read through q lands in
; buf's shadow. The double field of s gets its shadow through a shadow GEP.
; f = s->ptr[0] * s->val after s->ptr = buf.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.S = type { ptr, double }

define double @f(ptr %s, ptr %buf) {
entry:
  store ptr %buf, ptr %s
  %q = load ptr, ptr %s
  %v = load double, ptr %q
  %k = getelementptr inbounds %struct.S, ptr %s, i32 0, i32 1
  %w = load double, ptr %k
  %m = fmul double %v, %w
  ret double %m
}

define void @caller(ptr %s, ptr %ds, ptr %buf, ptr %dbuf) {
entry:
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %s, ptr %ds, ptr %buf, ptr %dbuf)
  ret void
}

declare double @__ad_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @f.ad.gradient(
; CHECK-SAME:    ptr [[S:%[0-9]+]], ptr [[BUF:%[0-9]+]], ptr [[DS:%[0-9]+]], ptr [[DBUF:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK:         store ptr [[BUF]], ptr [[S]]
; CHECK-NEXT:    store ptr [[DBUF]], ptr [[DS]]
; CHECK-NEXT:    %q = load ptr, ptr [[S]]
; CHECK-NEXT:    %q.shadow = load ptr, ptr [[DS]]
; CHECK-NEXT:    %v = load double, ptr %q
; CHECK-NEXT:    %k = getelementptr inbounds %struct.S, ptr [[S]], i32 0, i32 1
; CHECK-NEXT:    %k.shadow = getelementptr inbounds %struct.S, ptr [[DS]], i32 0, i32 1
; CHECK-LABEL: rev.entry:
; CHECK:         [[DV:%.*]] = fmul double %w, %m.d
; CHECK:         store double %{{.*}}, ptr %v.adj
; CHECK:         [[DW:%.*]] = fmul double %v, %m.d
; CHECK:         store double %{{.*}}, ptr %w.adj
; CHECK-NEXT:    %w.d = load double, ptr %w.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %w.adj
; CHECK-NEXT:    [[K0:%.*]] = load double, ptr %k.shadow
; CHECK-NEXT:    [[K1:%.*]] = fadd reassoc double [[K0]], %w.d
; CHECK-NEXT:    store double [[K1]], ptr %k.shadow
; CHECK-NEXT:    %v.d = load double, ptr %v.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %v.adj
; CHECK-NEXT:    [[Q0:%.*]] = load double, ptr %q.shadow
; CHECK-NEXT:    [[Q1:%.*]] = fadd reassoc double [[Q0]], %v.d
; CHECK-NEXT:    store double [[Q1]], ptr %q.shadow
; CHECK-NEXT:    br label %rev.exit

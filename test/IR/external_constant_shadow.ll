; A constant defined in another file (a C++ vtable, an extern const table of
; known size) gets an all-zero shadow of its declared type: its address may
; be stored into differentiated memory (an object's vtable pointer, inlined
; constructors at -O2) and floats may be read from it. This crashed the
; plugin (no initializer to build the shadow from). A declaration of unknown
; size cannot have a shadow: a clean error (test/Diagnostics).
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@vtable = external constant { [3 x ptr] }
@table = external constant [4 x double]

; obj->vptr = &vtable[0][2]; obj->v = x * table[1]; returns obj->v
define double @f(ptr %obj, double %x) {
entry:
  store ptr getelementptr inbounds nuw (i8, ptr @vtable, i64 16), ptr %obj
  %c = load double, ptr getelementptr inbounds nuw (i8, ptr @table, i64 8)
  %v = fmul double %x, %c
  %p = getelementptr inbounds i8, ptr %obj, i64 8
  store double %v, ptr %p
  %r = load double, ptr %p
  ret double %r
}

define double @rev(ptr %o, ptr %do, double %x) {
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %o, ptr %do, double %x)
  ret double %g
}
define double @fwd(ptr %o, ptr %do, double %x) {
  %t = call double (ptr, ...) @__ad_fwddiff(ptr @f, ptr %o, ptr %do, double %x, double 1.0)
  ret double %t
}

declare double @__ad_autodiff(ptr, ...)
declare double @__ad_fwddiff(ptr, ...)

; CHECK-DAG: @vtable.ad.sink = internal global { [3 x ptr] } zeroinitializer
; CHECK-DAG: @vtable.ad.zero = internal constant { [3 x ptr] } zeroinitializer
; CHECK-LABEL: define internal {{.*}} @f.ad.gradient(
; CHECK:         store ptr getelementptr inbounds nuw (i8, ptr @vtable.ad.sink, i64 16), ptr %2
; CHECK-LABEL: define internal {{.*}} @f.ad.tangent(
; CHECK:         store ptr getelementptr inbounds nuw (i8, ptr @vtable.ad.zero, i64 16), ptr %2

; An i64 load of a struct { float, i32 } passed to a call: the float's bits
; travel in the low half of an integer, which no derivative can follow
; (-O0 code passing a small struct by value, when nothing rewrites the load
; into bit operations first). Before, the integer was simply inactive and
; the derivative silently 0.
; RUN: not %opt_ad -passes=ad %s -S -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
; CHECK: error: {{.*}}cannot differentiate 'f': floating-point data is loaded as part of a wider integer (a small struct passed by value as one i64, say) and computed on or passed along as such; its derivative cannot follow; hint: pass such structs by pointer

%struct.FI = type { float, i32 }

define float @f(ptr %s) {
  %w = load i64, ptr %s
  %r = call float @g(i64 %w)
  ret float %r
}

define float @g(i64 %w) {
  %lo = trunc i64 %w to i32
  %v = bitcast i32 %lo to float
  %m = fmul float %v, %v
  ret float %m
}

define void @caller(ptr %dx) {
  %x = alloca %struct.FI
  store float 2.0, ptr %x
  %n = getelementptr %struct.FI, ptr %x, i32 0, i32 1
  store i32 3, ptr %n
  call void (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx)
  ret void
}
declare void @__ad_autodiff(ptr, ...)

; seed_75_snumo2.ll with the TBAA access tag clang puts on such a load ("double"):
; the plugin reads the tag and treats the i64 as the bits of a double, so
; both modes give the right derivative.
;
; RUN: %opt_ad -passes=ad %s -S -o %t.ll
; RUN: lli %t.ll | FileCheck %s
; CHECK: reverse dx=1 dy={{-?}}0{{$}}
; CHECK: forward dy=1{{$}}

@__ad_dup = external global i32
@__ad_const = external global i32
declare void @__ad_autodiff(ptr, ...)
declare void @__ad_fwddiff(ptr, ...)
declare i32 @printf(ptr, ...)
@fmt = private constant [35 x i8] c"reverse dx=%g dy=%g\0Aforward dy=%g\0A\00"

; With %c true, y[0] receives the bits of x[0], through a phi of integers.
define void @f(ptr %x, ptr %y, i1 %c) {
entry:
  br i1 %c, label %copy, label %join

copy:
  %v = load i64, ptr %x, !tbaa !0
  br label %join

join:
  %p = phi i64 [ 0, %entry ], [ %v, %copy ]
  store i64 %p, ptr %y
  ret void
}

define i32 @main() {
  %x = alloca double
  %dx = alloca double
  %y = alloca double
  %dy = alloca double
  %m = load i32, ptr @__ad_dup
  %k = load i32, ptr @__ad_const
  store double 2.0, ptr %x
  store double 0.0, ptr %dx
  store double 0.0, ptr %y
  store double 1.0, ptr %dy
  call void (ptr, ...) @__ad_autodiff(ptr @f, i32 %m, ptr %x, ptr %dx, i32 %m, ptr %y, ptr %dy, i32 %k, i1 true)
  %rdx = load double, ptr %dx
  %rdy = load double, ptr %dy
  store double 1.0, ptr %dx
  store double 0.0, ptr %dy
  call void (ptr, ...) @__ad_fwddiff(ptr @f, i32 %m, ptr %x, ptr %dx, i32 %m, ptr %y, ptr %dy, i32 %k, i1 true)
  %fdy = load double, ptr %dy
  call i32 (ptr, ...) @printf(ptr @fmt, double %rdx, double %rdy, double %fdy)
  ret i32 0
}

!0 = !{!1, !1, i64 0}
!1 = !{!"double", !2, i64 0}
!2 = !{!"omnipotent char", !3, i64 0}
!3 = !{!"Simple C/C++ TBAA"}

; print<ad-types> and print<ad-activity> on integers that carry floats: -O2
; copies a double (or a one-double struct) as an i64 load and store, and
; clang's TBAA access tag says "double"; a union read bitcast to double is
; the other way in. Both are listed as the bits of a double; the i64 loaded
; and stored with an "int" tag carries nothing.
; RUN: %opt_ad -passes='print<ad-types>' %s -disable-output 2>&1 | FileCheck %s
; RUN: %opt_ad -passes='print<ad-activity>' %s -disable-output 2>&1 | FileCheck %s --check-prefix=ACT

define double @f(ptr %x, ptr %y, ptr %n, ptr %m) {
  %v = load i64, ptr %x, !tbaa !0
  store i64 %v, ptr %y, !tbaa !0
  %k = load i64, ptr %n, !tbaa !4
  store i64 %k, ptr %m, !tbaa !4
  %u = load i64, ptr %y, !tbaa !0
  %d = bitcast i64 %u to double
  ret double %d
}

define double @caller(ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %n, ptr %dn, ptr %m, ptr %dm) {
  %r = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %n, ptr %dn, ptr %m, ptr %dm)
  ret double %r
}
declare double @__ad_autodiff(ptr, ...)

!0 = !{!1, !1, i64 0}
!1 = !{!"double", !2, i64 0}
!2 = !{!"omnipotent char", !3, i64 0}
!3 = !{!"Simple C/C++ TBAA"}
!4 = !{!5, !5, i64 0}
!5 = !{!"long", !2, i64 0}

; CHECK-LABEL: reverse-mode call in 'caller' of 'f', parameters: shadowed shadowed shadowed shadowed
; CHECK-NEXT:  memory of f:
; CHECK-NEXT:    arg 0: element of 8 bytes: double@0
; CHECK-NEXT:      facts: double@0 double@0 in [0,8)
; CHECK-NEXT:    arg 1: element of 8 bytes: double@0
; CHECK-NEXT:      facts: double@0 double@0 in [0,8)
; CHECK-NEXT:    arg 2: no floats or pointers
; CHECK-NEXT:      facts: int64@0 int64@0 in [0,8)
; CHECK-NEXT:    arg 3: no floats or pointers
; CHECK-NEXT:      facts: int64@0 int64@0 in [0,8)
; CHECK-NEXT:    %v = load i64, ptr %x, align 4, !tbaa !0: bits of double
; CHECK-NEXT:    %u = load i64, ptr %y, align 4, !tbaa !0: bits of double
; CHECK-NOT:     %k

; ACT:      activity of f:
; ACT:        bits of double: %v = load i64
; ACT-NEXT:   bits of double: %u = load i64
; ACT-NEXT:   varied: %d = bitcast i64 %u to double

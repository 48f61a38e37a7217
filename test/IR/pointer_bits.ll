; A pointer moved as an integer keeps its shadow beside it. -O2 copies a
; struct holding only a pointer as an i64 load and store; -O3 passes such a
; struct to an internal function as ptrtoint's i64. The type analysis says
; the bytes are a pointer (the caller's alloca of %struct.Ref), so the
; forward sweep copies the shadow's bits with them, the callee gets a shadow
; parameter for its i64, and the reverse sweep leaves the shadow alone (it
; carries no adjoint). Before, the loaded pointer's shadow was never written
; and the adjoint wrote through null.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

%struct.Ref = type { ptr }

define internal void @copy(ptr %d, ptr %s) {
  %v = load i64, ptr %s
  store i64 %v, ptr %d
  ret void
}

define internal void @put(ptr %d, i64 %bits) {
  store i64 %bits, ptr %d
  ret void
}

define float @f(ptr %x) {
  %a = alloca %struct.Ref
  store ptr %x, ptr %a
  %b = alloca %struct.Ref
  call void @copy(ptr %b, ptr %a)
  %c = alloca %struct.Ref
  %i = ptrtoint ptr %x to i64
  call void @put(ptr %c, i64 %i)
  %p = load ptr, ptr %b
  %q = load ptr, ptr %c
  %u = load float, ptr %p
  %w = load float, ptr %q
  %r = fmul float %u, %w
  ret float %r
}

define void @caller(ptr %x, ptr %dx) {
  call void (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx)
  ret void
}
declare void @__ad_autodiff(ptr, ...)

; The callee of ptrtoint's bits takes the shadow's bits as a parameter.
; CHECK-LABEL: define internal void @f.ad.gradient(
; CHECK-SAME:    ptr [[X:%[0-9]+]], ptr [[DX:%[0-9]+]], float
; CHECK:         %i = ptrtoint ptr [[X]] to i64
; CHECK-NEXT:    %i.shadow = ptrtoint ptr [[DX]] to i64
; CHECK-NEXT:    call void @put.ad.augmented(ptr %c, i64 %i, ptr %c.shadow, i64 %i.shadow

; The copy moves the shadow's bits in its forward sweep and nothing back.
; CHECK-LABEL: define internal void @copy.ad.augmented(
; CHECK-SAME:    ptr [[D:%[0-9]+]], ptr [[S:%[0-9]+]], ptr [[DD:%[0-9]+]], ptr [[DS:%[0-9]+]], ptr
; CHECK-NEXT:    %v = load i64, ptr [[S]]
; CHECK-NEXT:    %v.shadow = load i64, ptr [[DS]]
; CHECK-NEXT:    store i64 %v, ptr [[D]]
; CHECK-NEXT:    store i64 %v.shadow, ptr [[DD]]
; CHECK-LABEL: define internal void @copy.ad.adjoint(
; CHECK-NOT:     store
; CHECK:         ret void

; CHECK-LABEL: define internal void @put.ad.augmented(
; CHECK-SAME:    ptr noalias [[P:%[0-9]+]], i64 [[BITS:%[0-9]+]], ptr [[PS:%[0-9]+]], i64 [[SBITS:%[0-9]+]]
; CHECK-NEXT:    store i64 [[BITS]], ptr [[P]]
; CHECK-NEXT:    store i64 [[SBITS]], ptr [[PS]]

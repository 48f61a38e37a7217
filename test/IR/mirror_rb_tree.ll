; A libstdc++ red-black tree insertion (std::map): the primal call relinks
; the primal nodes; the shadow nodes are relinked by the same call on their
; shadows, after the colours the rebalance may read are copied from the
; primal nodes to the shadow nodes (before the primal call changes them).
; A tree walk (_Rb_tree_increment) returns the shadow of its result the same
; way. Both modes emit it where the primal call is; the reverse sweep has
; nothing to do for it.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; insert(node, parent, header); value = *(double *)(next(node) + 32) * x
define double @f(ptr %node, ptr %parent, ptr %header, double %x) {
entry:
  %v = getelementptr inbounds i8, ptr %node, i64 32
  store double %x, ptr %v
  call void @_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1 true, ptr %node, ptr %parent, ptr %header)
  %next = call ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr %parent)
  %w = getelementptr inbounds i8, ptr %next, i64 32
  %y = load double, ptr %w
  %r = fmul double %y, %x
  ret double %r
}

declare void @_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1, ptr, ptr, ptr)
declare ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr)

define double @rev(ptr %n, ptr %dn, ptr %p, ptr %dp, ptr %h, ptr %dh, double %x) {
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %n, ptr %dn, ptr %p, ptr %dp, ptr %h, ptr %dh, double %x)
  ret double %g
}
define double @fwd(ptr %n, ptr %dn, ptr %p, ptr %dp, ptr %h, ptr %dh, double %x) {
  %t = call double (ptr, ...) @__ad_fwddiff(ptr @f, ptr %n, ptr %dn, ptr %p, ptr %dp, ptr %h, ptr %dh, double %x, double 1.0)
  ret double %t
}

declare double @__ad_autodiff(ptr, ...)
declare double @__ad_fwddiff(ptr, ...)

; CHECK-LABEL: define internal {{.*}} @f.ad.gradient(ptr %0, ptr %1, ptr %2, double %3, ptr %4, ptr %5, ptr %6, double %7)
; CHECK:         call void @__ad_rb_tree_sync_colours(ptr %1, ptr %5, ptr %2, ptr %6, i1 false)
; CHECK-NEXT:    call void @_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1 true, ptr %0, ptr %1, ptr %2)
; CHECK-NEXT:    call void @_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1 true, ptr %4, ptr %5, ptr %6)
; CHECK-NEXT:    %next = call ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr %1)
; CHECK-NEXT:    %next.shadow = call ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr %5)
; CHECK:         %w.shadow = getelementptr inbounds i8, ptr %next.shadow, i64 32
; CHECK-LABEL: rev.entry:
; CHECK-NOT:     _Rb_tree
; CHECK:         ret

; The colour copy walks primal and shadow nodes in step.
; CHECK-LABEL: define linkonce_odr hidden void @__ad_rb_tree_sync_colours(
; CHECK:         call void @__ad_rb_tree_sync_subtree(ptr {{.*}}, ptr {{.*}}, i32 2)

; CHECK-LABEL: define internal {{.*}} @f.ad.tangent(
; CHECK:         call void @__ad_rb_tree_sync_colours(ptr %1, ptr %5, ptr %2, ptr %6, i1 false)
; CHECK-NEXT:    call void @_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1 true, ptr %0, ptr %1, ptr %2)
; CHECK-NEXT:    call void @_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1 true, ptr %4, ptr %5, ptr %6)
; CHECK-NEXT:    %next = call ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr %1)
; CHECK-NEXT:    %next.shadow = call ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr %5)

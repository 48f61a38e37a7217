; Found by ad_fuzz.py (llvm-stress --enable-scalable-vectors, seed 8, variant
; svfwd), reduced by hand. A scalar load or store into an alloca of a scalable
; vector type: the shadow alloca's size was computed with
; DataLayout::getTypeAllocSize(...) converted to a fixed integer, which aborts
; ("LLVM ERROR: Cannot implicitly convert a scalable size to a fixed-width
; size") in TangentBuilder::visit. Either a derivative that verifies or
; a clean diagnostic is acceptable; ad_fuzz.py --check classifies the outcome
; (verifier run on the output, crash / "internal error" / invalid IR fail).
;
; RUN: python3 %src/test/fuzz/ad_fuzz.py --plugin %plugin --check %s --expect pass

declare void @__ad_fwddiff(ptr, ...)

define void @f(ptr %p) {
  %a = alloca <vscale x 2 x double>
  store double 1.0, ptr %a
  %v = load double, ptr %a
  store double %v, ptr %p
  ret void
}

define void @caller(ptr %p, ptr %dp) {
  call void (ptr, ...) @__ad_fwddiff(ptr @f, ptr %p, ptr %dp)
  ret void
}

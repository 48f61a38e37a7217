; Found by ad_fuzz.py (llvm-stress --enable-scalable-vectors, seeds 79 and 84,
; variant sv), reduced by hand. A scalable-vector value that the reverse sweep
; needs (the operand of an fmul/fdiv in a loop) goes on the tape; the tape
; record's size comes from DataLayout::getTypeStoreSize(...) converted to a
; fixed integer (ReverseBuilder.cpp, R.Size += alignTo(...)), which aborts
; ("LLVM ERROR: Cannot implicitly convert a scalable size to a fixed-width
; size") in ReverseBuilder::fromForward. Either a derivative that verifies or
; a clean diagnostic is acceptable; ad_fuzz.py --check classifies the outcome.
;
; RUN: python3 %src/test/fuzz/ad_fuzz.py --plugin %plugin --check %s --expect pass

declare void @__ad_autodiff(ptr, ...)

define void @f(ptr %p, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %v = load <vscale x 2 x double>, ptr %p
  %w = fmul <vscale x 2 x double> %v, %v
  store <vscale x 2 x double> %w, ptr %p
  %i.next = add i64 %i, 1
  %c = icmp ult i64 %i.next, %n
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

define void @caller(ptr %p, ptr %dp, i64 %n) {
  call void (ptr, ...) @__ad_autodiff(ptr @f, ptr %p, ptr %dp, i64 %n)
  ret void
}

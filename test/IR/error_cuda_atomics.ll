; An atomic maximum of differentiated data, and a compare-and-swap on
; differentiated memory (the loop CUDA programs wrote for double atomicAdd
; before sm_60), have no exact derivative: errors, never a silent zero.
; RUN: sed -e 's/OP/fmax/' %s | not %opt_ad -passes=ad -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=MAX
; RUN: sed -e 's/OP/cas/' %s | not %opt_ad -passes=ad -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=CAS

target triple = "nvptx64-nvidia-cuda"

define void @fmax(ptr %x, ptr %y) {
  %v = load double, ptr %x, align 8
  %old = atomicrmw fmax ptr %y, double %v seq_cst, align 8
  ret void
}

define void @cas(ptr %x, ptr %y) {
  %v = load double, ptr %x, align 8
  %bits = bitcast double %v to i64
  %old = load i64, ptr %y, align 8
  %pair = cmpxchg ptr %y, i64 %old, i64 %bits seq_cst seq_cst, align 8
  ret void
}

define void @grad(ptr %x, ptr %dx, ptr %y, ptr %dy) {
  call void (ptr, ...) @__ad_autodiff(ptr @OP, ptr %x, ptr %dx, ptr %y, ptr %dy)
  ret void
}

declare void @__ad_autodiff(ptr, ...)

; MAX: error: {{.*}}an atomic fmax of differentiated floating-point data has no derivative rule
; CAS: error: {{.*}}compare-and-swap on differentiated memory

; __threadfence() (llvm.nvvm.membar.gl) and fences wider than the block in a
; differentiated device function serve protocols that pass data between
; blocks (the last block reads every block's partial sums), which the
; reverse sweep cannot mirror: an error. A block-scope fence is not.
; RUN: sed -e 's/FENCE/call void @llvm.nvvm.membar.gl()/' %s | not %opt_ad -passes=ad -S -o /dev/null 2>&1 | FileCheck %s
; RUN: sed -e 's/FENCE/fence seq_cst/' %s | not %opt_ad -passes=ad -S -o /dev/null 2>&1 | FileCheck %s
; RUN: sed -e 's/FENCE/fence syncscope("block") seq_cst/' %s | %opt_ad -passes=ad -S -o /dev/null

target triple = "nvptx64-nvidia-cuda"

define double @f(ptr %x) {
  %v = load double, ptr %x, align 8
  FENCE
  %p = fmul double %v, %v
  ret double %p
}

define void @k(ptr %x, ptr %dx) {
  %r = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx)
  ret void
}

declare double @__ad_autodiff(ptr, ...)
declare void @llvm.nvvm.membar.gl()

; CHECK: error: {{.*}}a memory fence or barrier beyond the thread block (__threadfence, a cluster or grid-wide sync) in device code

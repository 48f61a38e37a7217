; The plugin run alone by opt on IR with debug info: the error carries the
; DILocation of the malformed call (user.c:12:7), names the caller, the reason
; and the hint. The marker is a load from @__ad_dup, as any frontend emits it.
; RUN: not %opt_ad -passes=ad %s -S -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__ad_dup = external global i32

define double @f(double %x) {
entry:
  %m = fmul double %x, %x
  ret double %m
}

define double @caller(double %x, double %dx) !dbg !5 {
entry:
  %d = load i32, ptr @__ad_dup
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, i32 %d, double %x, double %dx), !dbg !8
  ret double %g
}

declare double @__ad_autodiff(ptr, ...)

; CHECK: error: user.c:12:7: in function caller double (double, double): invalid differentiation call in 'caller': __ad_dup needs a pointer parameter 1 of 'f' in reverse mode; hint: use __ad_out for a floating-point value passed by value
; CHECK-NOT: PLEASE submit a bug report
; CHECK-NOT: Stack dump

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "hand-written", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "user.c", directory: "/src")
!2 = !DISubroutineType(types: !{})
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "caller", scope: !1, file: !1, line: 10, type: !2, scopeLine: 10, spFlags: DISPFlagDefinition, unit: !0)
!8 = !DILocation(line: 12, column: 7, scope: !5)

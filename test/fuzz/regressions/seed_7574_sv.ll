; Found by ad_fuzz.py (llvm-stress --enable-scalable-vectors, seed 7574,
; variants sv and svfwd). An integer load from memory whose stores make it a
; possible copy of a float asks for the load's store size as a fixed number
; (ActivityAnalysis::visitIntegerLoad, floatMovedByIntegerAccess); with a
; scalable vector that aborts ("Cannot implicitly convert a scalable size to
; a fixed-width size") in the activity analysis, before the check that
; rejects scalable vectors with a diagnostic runs. Either a derivative that
; verifies or a clean diagnostic is acceptable.
;
; RUN: python3 %src/test/fuzz/ad_fuzz.py --plugin %plugin --check %s --expect pass

; ad_fuzz.py seed=7574 size=56 variant=sv
; ModuleID = '/tmp/autogen.bc'
source_filename = "/tmp/autogen.bc"

define void @autogen_SD7574(ptr %0, ptr %1, ptr %2, i32 %3, i64 %4, i8 %5) {
BB:
  %A4 = alloca i16, align 2
  %A3 = alloca i32, align 4
  %A2 = alloca i1, align 1
  %A1 = alloca i1, align 1
  %A = alloca <vscale x 4 x double>, align 32
  %L = load i32, ptr %A, align 4
  store <vscale x 2 x i8> undef, ptr %0, align 2
  %E = extractelement <vscale x 8 x i8> splat (i8 -1), i32 %L
  %I = insertelement <vscale x 16 x i1> splat (i1 true), i1 true, i32 %L
  %ZE = zext <vscale x 4 x i8> splat (i8 -1) to <vscale x 4 x i16>
  %Sl = select i1 false, <vscale x 4 x i16> splat (i16 -1), <vscale x 4 x i16> splat (i16 -1)
  %Cmp = icmp ult <vscale x 4 x i16> %Sl, splat (i16 -1)
  %L5 = load <vscale x 16 x i64>, ptr %A, align 128
  store <vscale x 4 x i8> splat (i8 -1), ptr %0, align 4
  %E6 = extractelement <vscale x 4 x i8> splat (i8 -1), i32 %L
  %I7 = insertelement <vscale x 4 x i8> splat (i8 -1), i8 %E, i32 %L
  %B = sdiv i8 %E6, %E6
  %ZE8 = zext <vscale x 4 x i8> %I7 to <vscale x 4 x i64>
  %Sl9 = select i1 false, <vscale x 4 x i1> %Cmp, <vscale x 4 x i1> %Cmp
  %Cmp10 = icmp ule <vscale x 2 x i64> splat (i64 -1), splat (i64 -1)
  %L11 = load <vscale x 4 x float>, ptr %A, align 16
  store <vscale x 1 x float> undef, ptr %0, align 4
  %E12 = extractelement <vscale x 4 x i64> %ZE8, i32 %L
  %I13 = insertelement <vscale x 16 x i1> %I, i1 true, i32 %L
  %B14 = urem <vscale x 2 x i64> splat (i64 -1), splat (i64 -1)
  %Se = sext <vscale x 16 x i1> %I13 to <vscale x 16 x i16>
  %Sl15 = select <vscale x 8 x i1> splat (i1 true), <vscale x 8 x i32> splat (i32 -1), <vscale x 8 x i32> splat (i32 -1)
  %Cmp16 = icmp ne <vscale x 2 x i64> splat (i64 -1), %B14
  %L17 = load <vscale x 16 x i64>, ptr %A3, align 128
  %E18 = extractelement <vscale x 4 x i1> %Sl9, i32 %L
  br label %CF

CF:                                               ; preds = %BB
  %I19 = insertelement <vscale x 4 x i8> splat (i8 -1), i8 %5, i32 %3
  %B20 = udiv i16 -1, -1
  %FC = sitofp i32 %3 to double
  %Sl21 = select i1 %E18, <vscale x 2 x i1> splat (i1 true), <vscale x 2 x i1> splat (i1 true)
  %Cmp22 = icmp ult <vscale x 8 x i8> splat (i8 -1), splat (i8 -1)
  %L23 = load i16, ptr %0, align 2
  store <vscale x 4 x double> undef, ptr %0, align 32
  %E24 = extractelement <vscale x 4 x i16> splat (i16 -1), i32 %L
  %I25 = insertelement <vscale x 2 x i64> splat (i64 -1), i64 %E12, i32 %L
  %B26 = mul <vscale x 4 x i8> splat (i8 -1), %I7
  %ZE27 = zext <vscale x 4 x i16> %Sl to <vscale x 4 x i32>
  %Sl28 = select i1 %E18, i8 %5, i8 %5
  %Cmp29 = icmp ugt <vscale x 4 x i8> splat (i8 -1), splat (i8 -1)
  %L30 = load <vscale x 8 x i64>, ptr %2, align 64
  store <vscale x 2 x i32> undef, ptr %A2, align 8
  %E31 = extractelement <vscale x 2 x i64> %I25, i32 %3
  %I32 = insertelement <vscale x 2 x i1> %Sl21, i1 %E18, i32 %L
  %B33 = or <vscale x 1 x i32> splat (i32 -1), splat (i32 -1)
  %FC34 = sitofp <vscale x 4 x i1> %Cmp to <vscale x 4 x float>
  %Sl35 = select i1 %E18, ptr %2, ptr %0
  %Cmp36 = icmp ule <vscale x 4 x i8> %I7, %I19
  store <vscale x 4 x i8> splat (i8 -1), ptr %Sl35, align 4
  store i32 %L, ptr %Sl35, align 4
  store float 0xFFFFFFFFE0000000, ptr %Sl35, align 4
  store <vscale x 2 x float> undef, ptr %Sl35, align 8
  ret void
}

; ---- appended by ad_fuzz.py (variant sv)
@__ad_dup = external global i32
@__ad_dupnoneed = external global i32
@__ad_const = external global i32
declare void @__ad_autodiff(ptr, ...)

define void @fuzz_main(ptr %a0, ptr %d0, ptr %a1, ptr %d1, ptr %a2, ptr %d2, i32 %a3, i64 %a4, i8 %a5) {
  %m.dup = load i32, ptr @__ad_dup
  %m.dupnoneed = load i32, ptr @__ad_dupnoneed
  %m.const = load i32, ptr @__ad_const
  call void (ptr, ...) @__ad_autodiff(ptr @autogen_SD7574, i32 %m.dup, ptr %a0, ptr %d0, i32 %m.dup, ptr %a1, ptr %d1, i32 %m.dup, ptr %a2, ptr %d2, i32 %m.const, i32 %a3, i32 %m.const, i64 %a4, i32 %m.const, i8 %a5)
  ret void
}

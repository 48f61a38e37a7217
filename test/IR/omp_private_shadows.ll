; A parallel region over a collapsed (b, t) loop reads in[(b*T + t)*C + i]
; and w[o*C + i] (clang -O2 -fopenmp of the C below). Differentiated:
; - the captured variables, which the region only reads, are passed to a
;   copy of its body by value; the restrict pointers keep noalias, and
;   those only read through get readonly;
; - the shadows of in and w are private per thread: their offsets are
;   bounded over the whole loop nest (the worksharing index from the bounds
;   given to libomp, b and t as its quotient and remainder by T), each
;   forward thread but thread 0 callocs a buffer and passes it, shifted by
;   the low end, as the shadow (thread 0 passes the shadow itself where
;   the fork found the other shadowed pointers apart from it); the adjoint adds into it without atomics, and the
;   adjoint's threads sum the buffers into the shadows between barriers.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s
;
; void layer(float *restrict out, const float *restrict in,
;            const float *restrict w, int B, int T, int C, int OC) {
; #pragma omp parallel for collapse(2)
;   for (int b = 0; b < B; b++)
;     for (int t = 0; t < T; t++)
;       for (int o = 0; o < OC; o++) {
;         float v = 0;
;         for (int i = 0; i < C; i++)
;           v += in[(b * T + t) * C + i] * w[o * C + i];
;         out[(b * T + t) * OC + o] = v;
;       }
; }

; The fork: the fourth word of each private shadow's header says whether
; the region's other shadowed pointers (out's range) lie apart from it.
; CHECK-LABEL: define internal void @layer.ad.gradient(
; CHECK: %ad.omp.tapes = call ptr @calloc(
; CHECK: [[BELOW:%.*]] = icmp ule i64
; CHECK: [[ABOVE:%.*]] = icmp ule i64
; CHECK: [[APART:%.*]] = or i1 [[ABOVE]], [[BELOW]]
; CHECK: [[ALL:%.*]] = and i1 true, [[APART]]
; CHECK: [[FLAG:%.*]] = zext i1 [[ALL]] to i64
; CHECK: store i64 [[FLAG]], ptr
; CHECK-LABEL: define internal void @layer.omp_outlined.ad.values.2.3.4.5.6r.7r.8r(
; CHECK-SAME: i32 %.value, i32 %.value1, i32 %.value2, i32 %.value3, ptr noalias readonly %.value4, ptr noalias readonly %.value5, ptr noalias %.value6)

; CHECK-LABEL: define internal void @layer.omp_outlined.ad.values.2.3.4.5.6r.7r.8r.ad.adjoint(
; CHECK-NOT: atomicrmw
; CHECK: ret void

; CHECK-LABEL: define internal void @layer.omp_outlined.ad.values.2.3.4.5.6r.7r.8r.ad.augmented.team(
; Thread 0 adds into the shadows themselves where the fork found nothing
; else the region adds to in their ranges (the header's fourth word); the
; other threads calloc their buffers.
; CHECK: [[INPLACE1:%.*]] = icmp ne i64
; CHECK: [[ZERO1:%.*]] = icmp eq i32 %ad.omp.thread, 0
; CHECK: [[FIRST1:%.*]] = and i1 [[ZERO1]], [[INPLACE1]]
; CHECK: br i1 [[FIRST1]], label %ad.omp.private.done, label %ad.omp.private
; CHECK: %ad.omp.private1 = call ptr @calloc(i64 1,
; CHECK: [[BUF1:%.*]] = phi ptr [ null, %ad.omp.run ], [ %ad.omp.private1, %ad.omp.private ]
; CHECK: [[LOW1:%.*]] = getelementptr i8, ptr [[BUF1]],
; CHECK: [[OWN1:%.*]] = load ptr, ptr
; CHECK: %[[SHIFT1:.*]] = select i1 [[FIRST1]], ptr [[OWN1]], ptr [[LOW1]]
; CHECK: %ad.omp.private4 = call ptr @calloc(i64 1,
; CHECK: [[BUF2:%.*]] = phi ptr [ null, %ad.omp.private.done ], [ %ad.omp.private4, %ad.omp.private2 ]
; CHECK: [[LOW2:%.*]] = getelementptr i8, ptr [[BUF2]],
; CHECK: %[[SHIFT2:.*]] = select i1 {{%.*}}, ptr {{%.*}}, ptr [[LOW2]]
; CHECK: call void @layer.omp_outlined.ad.values.2.3.4.5.6r.7r.8r.ad.augmented(
; CHECK-SAME: ptr %[[SHIFT1]], ptr %[[SHIFT2]],

; CHECK-LABEL: define internal void @layer.omp_outlined.ad.values.2.3.4.5.6r.7r.8r.ad.adjoint.team(
; CHECK: call void @layer.omp_outlined.ad.values.2.3.4.5.6r.7r.8r.ad.adjoint(ptr %ad.omp.tape)
; CHECK: call void @__kmpc_barrier(
; CHECK: call void @__ad_omp_sum_private.f32(
; CHECK: call void @__ad_omp_sum_private.f32(
; CHECK: call void @__kmpc_barrier(
; CHECK: call void @free(
; CHECK: call void @free(

; The sum skips a thread without a buffer, and adds only where a buffer
; received something.
; CHECK-LABEL: define linkonce_odr hidden void @__ad_omp_sum_private.f32(
; CHECK: icmp eq ptr {{%.*}}, null
; CHECK: fcmp une float
; CHECK: fadd float

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ident_t = type { i32, i32, i32, i32, ptr }

@0 = private unnamed_addr constant [23 x i8] c";unknown;unknown;0;0;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 22, ptr @0 }, align 8
@2 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 22, ptr @0 }, align 8
@__ad_dup = external local_unnamed_addr global i32, align 4

; Function Attrs: nounwind uwtable
define dso_local void @layer(ptr noalias noundef %0, ptr noalias noundef %1, ptr noalias noundef %2, i32 noundef %3, i32 noundef %4, i32 noundef %5, i32 noundef %6) #0 {
  %8 = alloca ptr, align 8
  %9 = alloca ptr, align 8
  %10 = alloca ptr, align 8
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  %13 = alloca i32, align 4
  %14 = alloca i32, align 4
  store ptr %0, ptr %8, align 8, !tbaa !10
  store ptr %1, ptr %9, align 8, !tbaa !10
  store ptr %2, ptr %10, align 8, !tbaa !10
  store i32 %3, ptr %11, align 4, !tbaa !6
  store i32 %4, ptr %12, align 4, !tbaa !6
  store i32 %5, ptr %13, align 4, !tbaa !6
  store i32 %6, ptr %14, align 4, !tbaa !6
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @2, i32 7, ptr nonnull @layer.omp_outlined, ptr nonnull %11, ptr nonnull %12, ptr nonnull %14, ptr nonnull %13, ptr nonnull %9, ptr nonnull %10, ptr nonnull %8)
  ret void
}

; Function Attrs: alwaysinline norecurse nounwind uwtable
define internal void @layer.omp_outlined(ptr noalias noundef readonly captures(none) %0, ptr noalias readnone captures(none) %1, ptr noundef nonnull readonly align 4 captures(none) dereferenceable(4) %2, ptr noundef nonnull readonly align 4 captures(none) dereferenceable(4) %3, ptr noundef nonnull readonly align 4 captures(none) dereferenceable(4) %4, ptr noundef nonnull readonly align 4 captures(none) dereferenceable(4) %5, ptr noundef nonnull readonly align 8 captures(none) dereferenceable(8) %6, ptr noundef nonnull readonly align 8 captures(none) dereferenceable(8) %7, ptr noundef nonnull readonly align 8 captures(none) dereferenceable(8) %8) #1 {
  %10 = alloca i64, align 8
  %11 = alloca i64, align 8
  %12 = alloca i64, align 8
  %13 = alloca i32, align 4
  %14 = load i32, ptr %2, align 4, !tbaa !6
  %15 = load i32, ptr %3, align 4, !tbaa !6
  %16 = sext i32 %15 to i64
  %17 = icmp sgt i32 %14, 0
  %18 = icmp sgt i32 %15, 0
  %19 = select i1 %17, i1 %18, i1 false
  br i1 %19, label %20, label %84

20:                                               ; preds = %9
  %21 = zext nneg i32 %14 to i64
  %22 = mul nuw nsw i64 %16, %21
  %23 = add nsw i64 %22, -1
  call void @llvm.lifetime.start.p0(ptr nonnull %10) #3
  store i64 0, ptr %10, align 8, !tbaa !13
  call void @llvm.lifetime.start.p0(ptr nonnull %11) #3
  store i64 %23, ptr %11, align 8, !tbaa !13
  call void @llvm.lifetime.start.p0(ptr nonnull %12) #3
  store i64 1, ptr %12, align 8, !tbaa !13
  call void @llvm.lifetime.start.p0(ptr nonnull %13) #3
  store i32 0, ptr %13, align 4, !tbaa !6
  %24 = load i32, ptr %0, align 4, !tbaa !6
  call void @__kmpc_for_static_init_8(ptr nonnull @1, i32 %24, i32 34, ptr nonnull %13, ptr nonnull %10, ptr nonnull %11, ptr nonnull %12, i64 1, i64 1)
  %25 = load i64, ptr %11, align 8, !tbaa !13
  %26 = call i64 @llvm.smin.i64(i64 %25, i64 %23)
  store i64 %26, ptr %11, align 8, !tbaa !13
  %27 = load i64, ptr %10, align 8, !tbaa !13
  %28 = icmp sgt i64 %27, %26
  br i1 %28, label %83, label %29

29:                                               ; preds = %20
  %30 = load i32, ptr %4, align 4, !tbaa !6
  %31 = icmp sgt i32 %30, 0
  %32 = load i32, ptr %5, align 4
  %33 = icmp sgt i32 %32, 0
  %34 = load ptr, ptr %8, align 8
  %35 = load i32, ptr %3, align 4
  %36 = sext i32 %32 to i64
  %37 = zext nneg i32 %30 to i64
  %38 = zext nneg i32 %32 to i64
  br label %39

39:                                               ; preds = %29, %65
  %40 = phi i64 [ %27, %29 ], [ %66, %65 ]
  br i1 %31, label %41, label %65

41:                                               ; preds = %39
  %42 = sdiv i64 %40, %16
  %43 = mul nsw i64 %42, %16
  %44 = srem i64 %40, %16
  %45 = trunc i64 %44 to i32
  %46 = trunc i64 %42 to i32
  %47 = load ptr, ptr %6, align 8
  %48 = load i32, ptr %3, align 4
  %49 = mul nsw i32 %48, %46
  %50 = add nsw i32 %49, %45
  %51 = mul nsw i32 %50, %32
  %52 = load ptr, ptr %7, align 8
  %53 = mul nsw i32 %35, %46
  %54 = add nsw i32 %53, %45
  %55 = mul nsw i32 %54, %30
  %56 = sext i32 %51 to i64
  %57 = sext i32 %55 to i64
  %58 = getelementptr float, ptr %47, i64 %56
  %59 = getelementptr float, ptr %34, i64 %57
  br label %60

60:                                               ; preds = %41, %68
  %61 = phi i64 [ 0, %41 ], [ %71, %68 ]
  br i1 %33, label %62, label %68

62:                                               ; preds = %60
  %63 = mul nuw nsw i64 %61, %36
  %64 = getelementptr inbounds nuw float, ptr %52, i64 %63
  br label %73

65:                                               ; preds = %68, %39
  %66 = add i64 %40, 1
  %67 = icmp eq i64 %40, %26
  br i1 %67, label %83, label %39

68:                                               ; preds = %73, %60
  %69 = phi float [ 0.000000e+00, %60 ], [ %80, %73 ]
  %70 = getelementptr float, ptr %59, i64 %61
  store float %69, ptr %70, align 4, !tbaa !15
  %71 = add nuw nsw i64 %61, 1
  %72 = icmp eq i64 %71, %37
  br i1 %72, label %65, label %60, !llvm.loop !17

73:                                               ; preds = %62, %73
  %74 = phi i64 [ 0, %62 ], [ %81, %73 ]
  %75 = phi float [ 0.000000e+00, %62 ], [ %80, %73 ]
  %76 = getelementptr float, ptr %58, i64 %74
  %77 = load float, ptr %76, align 4, !tbaa !15
  %78 = getelementptr inbounds nuw float, ptr %64, i64 %74
  %79 = load float, ptr %78, align 4, !tbaa !15
  %80 = call float @llvm.fmuladd.f32(float %77, float %79, float %75)
  %81 = add nuw nsw i64 %74, 1
  %82 = icmp eq i64 %81, %38
  br i1 %82, label %68, label %73, !llvm.loop !20

83:                                               ; preds = %65, %20
  call void @__kmpc_for_static_fini(ptr nonnull @1, i32 %24)
  call void @llvm.lifetime.end.p0(ptr nonnull %13) #3
  call void @llvm.lifetime.end.p0(ptr nonnull %12) #3
  call void @llvm.lifetime.end.p0(ptr nonnull %11) #3
  call void @llvm.lifetime.end.p0(ptr nonnull %10) #3
  br label %84

84:                                               ; preds = %83, %9
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #2

; Function Attrs: nounwind
declare void @__kmpc_for_static_init_8(ptr, i32, i32, ptr, ptr, ptr, ptr, i64, i64) local_unnamed_addr #3

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #4

; Function Attrs: nounwind
declare void @__kmpc_for_static_fini(ptr, i32) local_unnamed_addr #3

; Function Attrs: nounwind
declare !callback !21 void @__kmpc_fork_call(ptr, i32, ptr, ...) local_unnamed_addr #3

; Function Attrs: nounwind uwtable
define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, ptr noundef %4, ptr noundef %5, i32 noundef %6, i32 noundef %7, i32 noundef %8, i32 noundef %9) local_unnamed_addr #0 {
  %11 = load i32, ptr @__ad_dup, align 4, !tbaa !6
  tail call void (ptr, ...) @__ad_autodiff(ptr noundef nonnull @layer, i32 noundef %11, ptr noundef %0, ptr noundef %1, i32 noundef %11, ptr noundef %2, ptr noundef %3, i32 noundef %11, ptr noundef %4, ptr noundef %5, i32 noundef %6, i32 noundef %7, i32 noundef %8, i32 noundef %9) #3
  ret void
}

declare void @__ad_autodiff(ptr noundef, ...) local_unnamed_addr #5

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.smin.i64(i64, i64) #6

attributes #0 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { alwaysinline norecurse nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #3 = { nounwind }
attributes #4 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #5 = { "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #6 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3, !4}
!llvm.ident = !{!5}
!llvm.errno.tbaa = !{!6}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"openmp", i32 51}
!2 = !{i32 8, !"PIC Level", i32 2}
!3 = !{i32 7, !"PIE Level", i32 2}
!4 = !{i32 7, !"uwtable", i32 2}
!5 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!6 = !{!7, !7, i64 0}
!7 = !{!"int", !8, i64 0}
!8 = !{!"omnipotent char", !9, i64 0}
!9 = !{!"Simple C/C++ TBAA"}
!10 = !{!11, !11, i64 0}
!11 = !{!"p1 float", !12, i64 0}
!12 = !{!"any pointer", !8, i64 0}
!13 = !{!14, !14, i64 0}
!14 = !{!"long", !8, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"float", !8, i64 0}
!17 = distinct !{!17, !18, !19}
!18 = !{!"llvm.loop.mustprogress"}
!19 = !{!"llvm.loop.unroll.disable"}
!20 = distinct !{!20, !18, !19}
!21 = !{!22}
!22 = !{i64 2, i64 -1, i64 -1, i1 true}

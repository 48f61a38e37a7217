; The tape's run-time functions keep a freed buffer for the next tape of the
; thread where threads have pthread keys (Linux): __ad_tape_free puts the
; buffer into the key's value (its capacity in its first 8 bytes) unless the
; one already there is at least as large, and the first growth or
; reservation of an empty tape takes it back. The key is created once, with
; free as its destructor (a thread's buffer is freed when it exits), and the
; pthread functions are weak (no key, no cache). Elsewhere (a GPU, a target
; without pthread keys) __ad_tape_free just frees the buffer; a GPU thread's
; first records go to a local buffer, which free leaves alone.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s --check-prefix=LINUX
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s --check-prefix=WEAK
; RUN: %opt_ad -passes=ad -mtriple=nvptx64-nvidia-cuda %s -S | FileCheck %s --check-prefix=GPU
; RUN: %opt_ad -passes=ad -mtriple=x86_64-pc-windows-msvc %s -S | FileCheck %s --check-prefix=PLAIN

target triple = "x86_64-pc-linux-gnu"

define double @f(double %x, i32 %n) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi double [ 1.0, %entry ], [ %acc.next, %loop ]
  %acc.next = fmul double %acc, %x
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret double %acc.next
}

define double @caller(double %x, i32 %n) {
entry:
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, double %x, i32 %n)
  ret double %g
}

declare double @__ad_autodiff(ptr, ...)

; LINUX: @__ad_tape_key = linkonce_odr hidden global i64 0, align 8

; LINUX-LABEL: define linkonce_odr hidden void @__ad_tape_free(
; LINUX:         store %ad.tape zeroinitializer, ptr
; LINUX:         call i64 @__ad_tape_cache_key()
; LINUX:         [[OLD:%.*]] = call ptr @pthread_getspecific(i32
; LINUX:         load i64, ptr [[OLD]]
; LINUX:       keep:
; LINUX-NEXT:    store i64 [[CAP:%.*]], ptr [[DATA:%.*]], align 8
; LINUX-NEXT:    call i32 @pthread_setspecific(i32 {{%.*}}, ptr [[DATA]])
; LINUX:       drop.old:
; LINUX-NEXT:    call void @free(ptr [[OLD]])
; LINUX:       release:
; LINUX-NEXT:    call void @free(ptr [[DATA]])

; LINUX-LABEL: define linkonce_odr hidden i64 @__ad_tape_cache_key()
; LINUX:         load atomic i64, ptr @__ad_tape_key acquire
; LINUX:         call i32 @pthread_key_create(ptr {{%.*}}, ptr @free)
; LINUX:         cmpxchg ptr @__ad_tape_key, i64 0

; LINUX-LABEL: define linkonce_odr hidden void @__ad_tape_grow(
; LINUX:         call void @__ad_tape_take(ptr
; LINUX:         call ptr @realloc(

; LINUX-LABEL: define linkonce_odr hidden void @__ad_tape_take(
; LINUX:         [[CACHED:%.*]] = call ptr @pthread_getspecific(
; LINUX:         call i32 @pthread_setspecific(i32 {{%.*}}, ptr null)
; LINUX:         load i64, ptr [[CACHED]]

; LINUX-LABEL: define linkonce_odr hidden void @__ad_tape_reserve(
; LINUX:         call void @__ad_tape_take(ptr

; WEAK-DAG: declare extern_weak i32 @pthread_key_create(ptr, ptr)
; WEAK-DAG: declare extern_weak i32 @pthread_key_delete(i32)
; WEAK-DAG: declare extern_weak ptr @pthread_getspecific(i32)
; WEAK-DAG: declare extern_weak i32 @pthread_setspecific(i32, ptr)

; GPU-NOT: pthread
; GPU: %tape.local = alloca [256 x i8], align 16
; GPU-LABEL: define linkonce_odr hidden void @__ad_tape_free(
; GPU:         [[CAP:%.*]] = load i64, ptr
; GPU:         icmp ugt i64 [[CAP]], 256
; GPU:       release:
; GPU-NEXT:    call void @free(
; GPU-NOT: pthread

; PLAIN-NOT: pthread
; PLAIN-NOT: @__ad_tape_key
; PLAIN-LABEL: define linkonce_odr hidden void @__ad_tape_free(
; PLAIN:         [[DATA:%.*]] = load ptr, ptr
; PLAIN-NEXT:    store %ad.tape zeroinitializer, ptr
; PLAIN-NEXT:    call void @free(ptr [[DATA]])
; PLAIN-NEXT:    ret void
; PLAIN-NOT: pthread

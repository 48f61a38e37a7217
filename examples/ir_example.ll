; ir_example.ll - reverse mode on hand-written LLVM IR, for any frontend.
;
; The plugin works on IR, so a module from any compiler can call the entry
; points the way C does. run.sh (make demo) runs
;   opt-22 -load-pass-plugin=build/ADPlugin.so -passes=ad ir_example.ll -S
; then compiles the result with clang-22 -O2 and runs it.
;
; f(x, y, n) = y (x^(n-1) + ... + x + 1) + sin(x y), by a loop of n steps.
; At (x, y, n) = (0.7, 1.3, 3): df/dx = y (2x + 1) + y cos(xy),
;                               df/dy = x^2 + x + 1 + x cos(xy).

define internal double @f(double %x, double %y, i32 %n) {
entry:
  br label %loop
loop:                                   ; acc = acc * x + y, n times
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %loop ]
  %ax = fmul double %acc, %x
  %acc.next = fadd double %ax, %y
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  %xy = fmul double %x, %y
  %s = call double @llvm.sin.f64(double %xy)
  %r = fadd double %acc.next, %s
  ret double %r
}

; The entry point. Any name beginning with __ad_autodiff_ works; this one
; returns both adjoints (of x and of y) as a struct.
declare { double, double } @__ad_autodiff_xy(ptr, ...)
; A marker is an external global; the plugin recognises a load from it.
@__ad_const = external global i32

define i32 @main() {
entry:
  ; x and y are doubles: adjoints returned by default. n gets __ad_const.
  %const = load i32, ptr @__ad_const
  %g = call { double, double } (ptr, ...) @__ad_autodiff_xy(
           ptr @f, double 0.7, double 1.3, i32 %const, i32 3)
  %dx = extractvalue { double, double } %g, 0
  %dy = extractvalue { double, double } %g, 1

  ; Central differences with h = 1e-6.
  %fx1 = call double @f(double 0.700001, double 1.3, i32 3)
  %fx0 = call double @f(double 0.699999, double 1.3, i32 3)
  %fy1 = call double @f(double 0.7, double 1.300001, i32 3)
  %fy0 = call double @f(double 0.7, double 1.299999, i32 3)
  %fdx = call double @central(double %fx1, double %fx0)
  %fdy = call double @central(double %fy1, double %fy0)

  call i32 (ptr, ...) @printf(ptr @header)
  %bad.x = call i32 @compare(ptr @name.x, double %dx, double %fdx)
  %bad.y = call i32 @compare(ptr @name.y, double %dy, double %fdy)
  %bad = or i32 %bad.x, %bad.y
  ret i32 %bad                          ; non-zero on a mismatch
}

; (up - down) / 2h
define internal double @central(double %up, double %down) {
  %d = fsub double %up, %down
  %q = fdiv double %d, 2.0e-6
  ret double %q
}

; Prints one row; returns 1 when |ad - fd| > 1e-5 max(1, |fd|).
define internal i32 @compare(ptr %name, double %ad, double %fd) {
  %diff = fsub double %ad, %fd
  %adiff = call double @llvm.fabs.f64(double %diff)
  %afd = call double @llvm.fabs.f64(double %fd)
  %scale = call double @llvm.maxnum.f64(double %afd, double 1.0)
  %tol = fmul double %scale, 1.0e-5
  %bad = fcmp ogt double %adiff, %tol
  %flag = select i1 %bad, ptr @mismatch, ptr @empty
  call i32 (ptr, ...) @printf(ptr @row, ptr %name, double %ad, double %fd,
                              double %diff, ptr %flag)
  %r = zext i1 %bad to i32
  ret i32 %r
}

@header = private constant [54 x i8] c"input      AD gradient      finite diff   difference\0A\00"
@row = private constant [31 x i8] c"%-5s %16.10f %16.10f %12.2e%s\0A\00"
@name.x = private constant [6 x i8] c"df/dx\00"
@name.y = private constant [6 x i8] c"df/dy\00"
@mismatch = private constant [11 x i8] c"  MISMATCH\00"
@empty = private constant [1 x i8] zeroinitializer

declare i32 @printf(ptr, ...)
declare double @llvm.sin.f64(double)
declare double @llvm.fabs.f64(double)
declare double @llvm.maxnum.f64(double, double)

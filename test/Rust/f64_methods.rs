// Rust's float methods, each differentiated alone: they lower to LLVM
// intrinsics (exp, ln, sqrt, sin, powi, powf, mul_add, abs, max, ...), to
// libm calls (tan, asin, tanh, hypot, atan2, cbrt, exp_m1, ln_1p, ...) or
// to Rust code over those (asinh, acosh, atanh, to_degrees, sin_cos,
// clamp, log with a base). Reverse against central differences, forward
// against reverse, one and two arguments, f64 and f32.
// REQUIRES: rustc
// RUN: %rustc_ad -C opt-level=3 %s -o %t.O3 && %run %t.O3
// RUN: %rustc_ad -C opt-level=0 -C codegen-units=1 %s -o %t.O0 && %run %t.O0
#[path = "Inputs/ad.rs"]
mod ad;
use std::ffi::c_void;

/// Defines `extern "C" fn` $name(x) = $body, and checks its derivative at $x.
macro_rules! unary {
    ($name:ident, |$x:ident| $body:expr, $at:expr) => {{
        extern "C" fn $name($x: f64) -> f64 {
            $body
        }
        let x: f64 = $at;
        let rev = unsafe { ad::__ad_autodiff($name as *const c_void, x) };
        let fwd = unsafe { ad::__ad_fwddiff($name as *const c_void, x, 1.0) };
        let fd = ad::central(&|v: &[f64]| $name(v[0]), &[x], 0);
        ad::close(concat!(stringify!($name), " reverse"), rev, fd, 1e-6);
        ad::close(concat!(stringify!($name), " forward"), fwd, rev, 1e-14);
    }};
}

/// The same for $name(x, y), both active: the adjoints come back as a
/// struct of two, and forward mode runs once per direction.
macro_rules! binary {
    ($name:ident, |$x:ident, $y:ident| $body:expr, $at:expr) => {{
        extern "C" fn $name($x: f64, $y: f64) -> f64 {
            $body
        }
        let (x, y): (f64, f64) = $at;
        let rev = unsafe { ad::__ad_autodiff_d2($name as *const c_void, x, y) };
        let fx = unsafe { ad::__ad_fwddiff($name as *const c_void, x, 1.0, y, 0.0) };
        let fy = unsafe { ad::__ad_fwddiff($name as *const c_void, x, 0.0, y, 1.0) };
        let f = |v: &[f64]| $name(v[0], v[1]);
        ad::close(concat!(stringify!($name), " reverse x"), rev.dx, ad::central(&f, &[x, y], 0), 1e-6);
        ad::close(concat!(stringify!($name), " reverse y"), rev.dy, ad::central(&f, &[x, y], 1), 1e-6);
        ad::close(concat!(stringify!($name), " forward x"), fx, rev.dx, 1e-14);
        ad::close(concat!(stringify!($name), " forward y"), fy, rev.dy, 1e-14);
    }};
}

fn main() {
    unary!(exp, |x| x.exp(), 0.7);
    unary!(exp2, |x| x.exp2(), 0.7);
    unary!(exp_m1, |x| x.exp_m1(), 0.3);
    unary!(ln, |x| x.ln(), 1.7);
    unary!(log2, |x| x.log2(), 1.7);
    unary!(log10, |x| x.log10(), 1.7);
    unary!(ln_1p, |x| x.ln_1p(), 0.4);
    unary!(sqrt, |x| x.sqrt(), 2.3);
    unary!(cbrt, |x| x.cbrt(), 2.3);
    unary!(sin, |x| x.sin(), 0.9);
    unary!(cos, |x| x.cos(), 0.9);
    unary!(tan, |x| x.tan(), 0.9);
    unary!(asin, |x| x.asin(), 0.4);
    unary!(acos, |x| x.acos(), 0.4);
    unary!(atan, |x| x.atan(), 0.4);
    unary!(sinh, |x| x.sinh(), 0.8);
    unary!(cosh, |x| x.cosh(), 0.8);
    unary!(tanh, |x| x.tanh(), 0.8);
    unary!(asinh, |x| x.asinh(), 0.8);
    unary!(acosh, |x| x.acosh(), 1.8);
    unary!(atanh, |x| x.atanh(), 0.3);
    unary!(abs, |x| x.abs(), -1.3);
    unary!(recip, |x| x.recip(), 1.3);
    unary!(to_degrees, |x| x.to_degrees(), 0.5);
    unary!(to_radians, |x| x.to_radians(), 30.0);
    unary!(powi3, |x| x.powi(3), 1.3);
    unary!(powi_neg2, |x| x.powi(-2), 1.3);
    unary!(powf_const, |x| x.powf(2.5), 1.3);
    unary!(sin_cos, |x| { let (s, c) = x.sin_cos(); s * c * c }, 0.6);
    unary!(clamp, |x| (3.0 * x).clamp(-1.0, 1.0) + x * x, 0.2);
    unary!(signum, |x| x.signum() * x * x, -0.7);
    unary!(floor_frac, |x| x.floor() * x + (x - x.trunc()) * x, 2.4);
    unary!(rem_euclid, |x| (x * x).rem_euclid(1.5), 1.4);
    // f32: central differences of an f32 function are coarse; against the
    // closed form, in f64, to f32's precision.
    {
        extern "C" fn f32_mix(x: f64) -> f64 {
            let y = x as f32;
            (y.exp() + y.tanh() + y.sqrt() + y.powi(3) + y.ln() + y.sin()) as f64
        }
        let x = 0.8f64;
        let want = x.exp() + 1.0 - x.tanh().powi(2) + 0.5 / x.sqrt() + 3.0 * x * x
            + 1.0 / x + x.cos();
        let rev = unsafe { ad::__ad_autodiff(f32_mix as *const c_void, x) };
        let fwd = unsafe { ad::__ad_fwddiff(f32_mix as *const c_void, x, 1.0) };
        ad::close("f32_mix reverse", rev, want, 1e-6);
        ad::close("f32_mix forward", fwd, want, 1e-6);
    }

    binary!(powf, |x, y| x.powf(y), (1.3, 0.7));
    binary!(hypot, |x, y| x.hypot(y), (1.3, -0.7));
    binary!(atan2, |x, y| x.atan2(y), (1.3, -0.7));
    binary!(log_base, |x, y| x.log(y), (1.3, 2.7));
    binary!(max, |x, y| x.max(y) * y, (1.3, 0.7));
    binary!(min, |x, y| x.min(y) * x, (1.3, 0.7));
    binary!(copysign, |x, y| x.copysign(y) * y, (1.3, -0.7));
    binary!(mul_add, |x, y| x.mul_add(y, x * 0.5), (1.3, -0.7));
    binary!(div_euclid, |x, y| x.div_euclid(0.4) * y + x * y, (1.3, -0.7));
    println!("ok");
}

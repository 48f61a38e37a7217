// Generic Rust code (a trait with an associated function, a generic
// function over it, a generic higher-order function taking a closure)
// monomorphized by an extern "C" wrapper, which is what the entry points
// take; closures that capture by reference and by move. Reverse and forward
// against the closed form.
// REQUIRES: rustc
// RUN: %rustc_ad -C opt-level=3 %s -o %t.O3 && %run %t.O3
// RUN: %rustc_ad -C opt-level=0 -C codegen-units=1 %s -o %t.O0 && %run %t.O0
#[path = "Inputs/ad.rs"]
mod ad;
use std::ffi::c_void;

trait Shape {
    fn area(&self) -> f64;
    fn scale(&mut self, k: f64);
}

struct Circle {
    r: f64,
}
struct Rect {
    w: f64,
    h: f64,
}

impl Shape for Circle {
    fn area(&self) -> f64 {
        std::f64::consts::PI * self.r * self.r
    }
    fn scale(&mut self, k: f64) {
        self.r *= k;
    }
}
impl Shape for Rect {
    fn area(&self) -> f64 {
        self.w * self.h
    }
    fn scale(&mut self, k: f64) {
        self.w *= k;
        self.h *= k;
    }
}

/// Generic over the shape: monomorphized twice.
fn scaled_area<S: Shape>(mut s: S, k: f64) -> f64 {
    s.scale(k);
    s.area()
}

/// A generic higher-order function: sum_i f(x_i).
fn sum_by<F: Fn(f64) -> f64>(x: &[f64], f: F) -> f64 {
    x.iter().map(|&t| f(t)).sum()
}

/// pi (r k)^2 + w h k^2 + sum_i c * x_i^2 * k + sum_i (x_i + k)^3 / 3.
#[no_mangle]
pub extern "C" fn model(r: f64, w: f64, h: f64, k: f64, x: *const f64, n: usize) -> f64 {
    let x = unsafe { std::slice::from_raw_parts(x, n) };
    let c = 0.5;
    let quadratic = |t: f64| c * t * t * k; // captures c and k by reference
    let shift = k;
    let cubic = move |t: f64| (t + shift).powi(3) / 3.0; // by move
    scaled_area(Circle { r }, k) + scaled_area(Rect { w, h }, k) + sum_by(x, quadratic)
        + sum_by(x, cubic)
}

fn main() {
    let (r, w, h, k) = (0.8, 1.5, 0.4, 1.2);
    let x = [0.3, -0.5, 1.1, 0.9];
    let pi = std::f64::consts::PI;
    let sx2: f64 = x.iter().map(|t| t * t).sum();
    let want_r = 2.0 * pi * r * k * k;
    let want_w = h * k * k;
    let want_h = w * k * k;
    let want_k = 2.0 * pi * r * r * k + 2.0 * w * h * k + 0.5 * sx2
        + x.iter().map(|t| (t + k).powi(2)).sum::<f64>();

    let mut dx = [0.0; 4];
    // Four active scalars (their adjoints come back, in order) and a slice.
    #[repr(C)]
    struct D4 {
        r: f64,
        w: f64,
        h: f64,
        k: f64,
    }
    extern "C" {
        fn __ad_autodiff_d4(f: *const c_void, ...) -> D4;
    }
    let d = unsafe {
        __ad_autodiff_d4(model as *const c_void, r, w, h, k, x.as_ptr(), dx.as_mut_ptr(), 4usize)
    };
    ad::close("d/dr", d.r, want_r, 1e-14);
    ad::close("d/dw", d.w, want_w, 1e-14);
    ad::close("d/dh", d.h, want_h, 1e-14);
    ad::close("d/dk", d.k, want_k, 1e-14);
    for i in 0..4 {
        ad::close("d/dx", dx[i], 2.0 * 0.5 * x[i] * k + (x[i] + k).powi(2), 1e-14);
    }

    let tx = [0.0; 4];
    let fk = unsafe {
        ad::__ad_fwddiff(model as *const c_void, r, 0.0, w, 0.0, h, 0.0, k, 1.0,
                         x.as_ptr(), tx.as_ptr(), 4usize)
    };
    ad::close("forward d/dk", fk, want_k, 1e-14);
    let ones = [1.0; 4];
    let fx = unsafe {
        ad::__ad_fwddiff(model as *const c_void, r, 0.0, w, 0.0, h, 0.0, k, 0.0,
                         x.as_ptr(), ones.as_ptr(), 4usize)
    };
    ad::close("forward along x", fx, dx.iter().sum(), 1e-14);
    println!("ok");
}

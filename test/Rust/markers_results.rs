// The markers as a Rust program passes them (a read of the static at the
// call) and results of several adjoints: a struct of two (returned in
// registers) and of three (returned through a hidden pointer, which rustc
// types as bytes), explicit __ad_out and __ad_const on scalars,
// __ad_dupnoneed on an output buffer. Against the closed form, at -O3 and
// -O0.
// REQUIRES: rustc
// RUN: %rustc_ad -C opt-level=3 %s -o %t.O3 && %run %t.O3
// RUN: %rustc_ad -C opt-level=0 -C codegen-units=1 %s -o %t.O0 && %run %t.O0
#[path = "Inputs/ad.rs"]
mod ad;
use std::ffi::c_void;

/// x^2 y + sin(z) * y + k * x (k an integer, constant by default).
extern "C" fn three(x: f64, y: f64, z: f64, k: i32) -> f64 {
    x * x * y + z.sin() * y + k as f64 * x
}

/// out_i = s * a_i^2; returns sum_i out_i.
extern "C" fn scaled(a: *const f64, out: *mut f64, s: f64, n: usize) -> f64 {
    let (a, out) = unsafe {
        (std::slice::from_raw_parts(a, n), std::slice::from_raw_parts_mut(out, n))
    };
    let mut total = 0.0;
    for (o, v) in out.iter_mut().zip(a) {
        *o = s * v * v;
        total += *o;
    }
    total
}

fn main() {
    let (x, y, z, k) = (1.5f64, -0.5f64, 0.8f64, 3i32);
    let d = unsafe { ad::__ad_autodiff_d3(three as *const c_void, x, y, z, k) };
    ad::close("d3 x", d.dx, 2.0 * x * y + k as f64, 1e-15);
    ad::close("d3 y", d.dy, x * x + z.sin(), 1e-15);
    ad::close("d3 z", d.dz, z.cos() * y, 1e-15);

    // y constant: two adjoints, in registers.
    let d = unsafe {
        ad::__ad_autodiff_d2(three as *const c_void, ad::__ad_out, x, ad::__ad_const, y,
                             ad::__ad_out, z, ad::__ad_const, k)
    };
    ad::close("d2 x", d.dx, 2.0 * x * y + k as f64, 1e-15);
    ad::close("d2 z", d.dy, z.cos() * y, 1e-15);

    // Forward with a constant y: only x and z carry tangents.
    let t = unsafe {
        ad::__ad_fwddiff(three as *const c_void, x, 1.0, ad::__ad_const, y, z, 2.0, k)
    };
    ad::close("forward", t, 2.0 * x * y + k as f64 + 2.0 * z.cos() * y, 1e-15);

    // The output buffer's contents are not needed (dupnoneed): its shadow
    // is the seed, added to the return's seed of 1.
    let n = 5;
    let a: Vec<f64> = (0..n).map(|i| 0.5 + i as f64).collect();
    let mut da = vec![0.0; n];
    let mut out = vec![0.0; n];
    let mut dout = vec![1.0; n];
    let s = 1.25;
    let ds = unsafe {
        ad::__ad_autodiff(scaled as *const c_void, a.as_ptr(), da.as_mut_ptr(),
                          ad::__ad_dupnoneed, out.as_mut_ptr(), dout.as_mut_ptr(), s, n)
    };
    // Each out_i is seeded 1 by its shadow and 1 through the sum.
    for i in 0..n {
        ad::close("dupnoneed d/da", da[i], 2.0 * 2.0 * s * a[i], 1e-14);
    }
    ad::close("dupnoneed d/ds", ds, 2.0 * a.iter().map(|v| v * v).sum::<f64>(), 1e-14);
    println!("ok");
}

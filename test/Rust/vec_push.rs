// A Vec grown by push in a loop (Rust's __rust_alloc, then __rust_realloc
// as it doubles, and __rust_dealloc when it drops), a Vec made by collect
// and one by vec![0.0; n], inside the differentiated function: reverse and
// forward derivatives against the closed form, and forward against reverse.
// At opt-level 0 and 1 rustc links std's own copies of Vec's growth
// functions (shared generics, machine code without IR): Vec needs -O2 or -O3
// in the crate that differentiates (docs/RUST.md).
// REQUIRES: rustc
// RUN: %rustc_ad -C opt-level=3 %s -o %t.O3 && %run %t.O3
// RUN: %rustc_ad -C opt-level=2 %s -o %t.O2 && %run %t.O2
#[path = "Inputs/ad.rs"]
mod ad;
use std::ffi::c_void;

/// sum_i (i + 1) * x_i^2 * y_i, with y = cumulative sums of sin(x):
/// the pushes reallocate the Vec holding the squares several times.
#[no_mangle]
pub extern "C" fn grown(x: *const f64, n: usize) -> f64 {
    let x = unsafe { std::slice::from_raw_parts(x, n) };
    let mut squares = Vec::new();
    for &xi in x {
        squares.push(xi * xi);
    }
    let sines: Vec<f64> = x.iter().map(|t| t.sin()).collect();
    let mut cumulative = vec![0.0; n];
    let mut run = 0.0;
    for i in 0..n {
        run += sines[i];
        cumulative[i] = run;
    }
    let mut s = 0.0;
    for (i, (q, c)) in squares.iter().zip(cumulative.iter()).enumerate() {
        s += (i as f64 + 1.0) * q * c;
    }
    s
}

/// The closed form of d grown / d x_k.
fn grown_gradient(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let c: Vec<f64> = x
        .iter()
        .scan(0.0, |run, t| {
            *run += t.sin();
            Some(*run)
        })
        .collect();
    (0..n)
        .map(|k| {
            // d/dx_k of (k+1) x_k^2 c_k, plus x_k's sine in every c_i, i >= k.
            let own = (k as f64 + 1.0) * 2.0 * x[k] * c[k];
            let later: f64 = (k..n).map(|i| (i as f64 + 1.0) * x[i] * x[i]).sum();
            own + later * x[k].cos()
        })
        .collect()
}

fn main() {
    let n = 37; // 4, 8, 16, 32, 64: four reallocations
    let x: Vec<f64> = (0..n).map(|i| 0.1 + 0.05 * i as f64).collect();
    let want = grown_gradient(&x);

    let mut dx = vec![0.0; n];
    unsafe {
        ad::__ad_autodiff(grown as *const c_void, x.as_ptr(), dx.as_mut_ptr(), n);
    }
    for k in 0..n {
        ad::close(&format!("reverse d/dx[{}]", k), dx[k], want[k], 1e-12);
    }

    // Forward mode along e_k for a few k, and along all ones (the sum).
    for k in [0, 1, n / 2, n - 1] {
        let mut t = vec![0.0; n];
        t[k] = 1.0;
        let d = unsafe {
            ad::__ad_fwddiff(grown as *const c_void, x.as_ptr(), t.as_ptr(), n)
        };
        ad::close(&format!("forward d/dx[{}]", k), d, want[k], 1e-12);
    }
    let ones = vec![1.0; n];
    let d = unsafe { ad::__ad_fwddiff(grown as *const c_void, x.as_ptr(), ones.as_ptr(), n) };
    ad::close("forward along ones", d, dx.iter().sum(), 1e-12);
    println!("ok");
}

// Vecs whose elements hold pointers or several floats, grown by push: a
// Vec<Vec<f64>> (the outer buffer's reallocations move the inner Vecs'
// pointers, whose shadows must move along) and a Vec of repr(C) pairs.
// Reverse and forward against the closed form.
// REQUIRES: rustc
// RUN: %rustc_ad -C opt-level=3 %s -o %t.O3 && %run %t.O3
#[path = "Inputs/ad.rs"]
mod ad;
use std::ffi::c_void;

#[derive(Clone, Copy)]
#[repr(C)]
struct Pair {
    a: f64,
    b: f64,
}

/// Row i of a triangular table holds x_0 .. x_i scaled by (i + 1); returns
/// the sum of squares of all entries plus sum_i a_i b_i over pairs
/// (x_i, x_i^2): sum_i (i+1)^2 sum_{j<=i} x_j^2 + sum_i x_i^3.
#[no_mangle]
pub extern "C" fn table(x: *const f64, n: usize) -> f64 {
    let x = unsafe { std::slice::from_raw_parts(x, n) };
    let mut rows: Vec<Vec<f64>> = Vec::new();
    let mut pairs: Vec<Pair> = Vec::new();
    for i in 0..n {
        let mut row = Vec::new();
        for j in 0..=i {
            row.push((i as f64 + 1.0) * x[j]);
        }
        rows.push(row);
        pairs.push(Pair { a: x[i], b: x[i] * x[i] });
    }
    let squares: f64 = rows.iter().map(|r| r.iter().map(|v| v * v).sum::<f64>()).sum();
    squares + pairs.iter().map(|p| p.a * p.b).sum::<f64>()
}

fn main() {
    let n = 11;
    let x: Vec<f64> = (0..n).map(|i| 0.2 + 0.1 * i as f64).collect();
    // d/dx_j = 2 x_j sum_{i>=j} (i+1)^2 + 3 x_j^2
    let want: Vec<f64> = (0..n)
        .map(|j| {
            let s: f64 = (j..n).map(|i| (i as f64 + 1.0).powi(2)).sum();
            2.0 * x[j] * s + 3.0 * x[j] * x[j]
        })
        .collect();
    let mut dx = vec![0.0; n];
    unsafe {
        ad::__ad_autodiff(table as *const c_void, x.as_ptr(), dx.as_mut_ptr(), n);
    }
    for j in 0..n {
        ad::close(&format!("reverse [{}]", j), dx[j], want[j], 1e-13);
    }
    for j in [0, 5, n - 1] {
        let mut t = vec![0.0; n];
        t[j] = 1.0;
        let d = unsafe { ad::__ad_fwddiff(table as *const c_void, x.as_ptr(), t.as_ptr(), n) };
        ad::close(&format!("forward [{}]", j), d, want[j], 1e-13);
    }
    println!("ok");
}

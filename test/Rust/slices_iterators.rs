// Slices and iterator chains in the differentiated function: windows, zip,
// map, fold, sum, enumerate, rev, chunks, bounds-checked indexing and
// get().unwrap() (whose panics are inactive callees that never return), and
// a slice written through (&mut [f64]) as the output. Reverse and forward
// derivatives against closed forms, at -O3 and -O0.
// REQUIRES: rustc
// RUN: %rustc_ad -C opt-level=3 %s -o %t.O3 && %run %t.O3
// (-C codegen-units=1 at -O0 until ThinLTO imports the generic functions
// that another codegen unit of the crate holds.)
// RUN: %rustc_ad -C opt-level=0 -C codegen-units=1 %s -o %t.O0 && %run %t.O0
#[path = "Inputs/ad.rs"]
mod ad;
use std::ffi::c_void;

/// sum_i (x_{i+1} - x_i)^2 + sum_i w_i x_i + (x_0 * x_last) over chunks of two.
fn energy(x: &[f64], w: &[f64]) -> f64 {
    let springs: f64 = x.windows(2).map(|p| (p[1] - p[0]).powi(2)).sum();
    let weighted = x.iter().zip(w).fold(0.0, |acc, (a, b)| acc + a * b);
    let ends = x[0] * *x.get(x.len() - 1).unwrap();
    let mut pairs = 0.0;
    for (k, c) in x.chunks(2).enumerate().rev() {
        pairs += (k as f64 + 1.0) * c.iter().product::<f64>();
    }
    springs + weighted + ends + pairs
}

#[no_mangle]
pub extern "C" fn energy_c(x: *const f64, w: *const f64, n: usize) -> f64 {
    let (x, w) = unsafe {
        (std::slice::from_raw_parts(x, n), std::slice::from_raw_parts(w, n))
    };
    energy(x, w)
}

/// y_i = x_i * x_{n-1-i} written into the caller's slice.
#[no_mangle]
pub extern "C" fn mirror(x: *const f64, y: *mut f64, n: usize) {
    let (x, y) = unsafe {
        (std::slice::from_raw_parts(x, n), std::slice::from_raw_parts_mut(y, n))
    };
    for (i, yi) in y.iter_mut().enumerate() {
        *yi = x[i] * x[n - 1 - i];
    }
}

fn energy_gradient(x: &[f64], w: &[f64]) -> Vec<f64> {
    let n = x.len();
    let mut g = vec![0.0; n];
    for i in 0..n - 1 {
        let d = 2.0 * (x[i + 1] - x[i]);
        g[i + 1] += d;
        g[i] -= d;
    }
    for i in 0..n {
        g[i] += w[i];
    }
    g[0] += x[n - 1];
    g[n - 1] += x[0];
    for (k, c) in (0..n).collect::<Vec<_>>().chunks(2).enumerate() {
        let s = k as f64 + 1.0;
        if c.len() == 2 {
            g[c[0]] += s * x[c[1]];
            g[c[1]] += s * x[c[0]];
        } else {
            g[c[0]] += s;
        }
    }
    g
}

fn main() {
    let n = 7;
    let x: Vec<f64> = (0..n).map(|i| 0.5 + 0.3 * i as f64 - 0.05 * (i * i) as f64).collect();
    let w: Vec<f64> = (0..n).map(|i| 1.0 / (i as f64 + 2.0)).collect();
    let want = energy_gradient(&x, &w);

    // w is duplicated too, its adjoint unused: at -O0 the Zip holds both
    // slices in one struct, and a struct with a shadow holds only pointers
    // that have one (docs/RUST.md).
    let mut dx = vec![0.0; n];
    let mut dw = vec![0.0; n];
    unsafe {
        ad::__ad_autodiff(energy_c as *const c_void, x.as_ptr(), dx.as_mut_ptr(),
                          w.as_ptr(), dw.as_mut_ptr(), n);
    }
    for i in 0..n {
        ad::close(&format!("energy reverse d/dw[{}]", i), dw[i], x[i], 1e-14);
    }
    for i in 0..n {
        ad::close(&format!("energy reverse [{}]", i), dx[i], want[i], 1e-13);
    }
    let zeros = vec![0.0; n];
    for i in 0..n {
        let mut t = vec![0.0; n];
        t[i] = 1.0;
        let d = unsafe {
            ad::__ad_fwddiff(energy_c as *const c_void, x.as_ptr(), t.as_ptr(),
                             w.as_ptr(), zeros.as_ptr(), n)
        };
        ad::close(&format!("energy forward [{}]", i), d, want[i], 1e-13);
    }

    // The output slice's shadow is the seed: seed y_j = j + 1, so
    // dx_i = sum_j (j+1) d y_j / d x_i = (i+1) x_{n-1-i} + (n-i) x_{n-1-i}.
    let mut y = vec![0.0; n];
    let mut dy: Vec<f64> = (0..n).map(|j| j as f64 + 1.0).collect();
    let mut dx = vec![0.0; n];
    unsafe {
        ad::__ad_autodiff(mirror as *const c_void, x.as_ptr(), dx.as_mut_ptr(),
                          y.as_mut_ptr(), dy.as_mut_ptr(), n);
    }
    for i in 0..n {
        ad::close(&format!("mirror primal [{}]", i), y[i], x[i] * x[n - 1 - i], 0.0);
        let want = (i as f64 + 1.0 + (n - i) as f64) * x[n - 1 - i];
        ad::close(&format!("mirror reverse [{}]", i), dx[i], want, 1e-14);
        ad::close(&format!("mirror seed consumed [{}]", i), dy[i], 0.0, 0.0);
    }
    // Forward: the tangent of y along e_0 is written into the shadow of y.
    let mut t = vec![0.0; n];
    t[0] = 1.0;
    let mut ty = vec![0.0; n];
    unsafe {
        ad::__ad_fwddiff(mirror as *const c_void, x.as_ptr(), t.as_ptr(),
                         y.as_mut_ptr(), ty.as_mut_ptr(), n);
    }
    for j in 0..n {
        // d(x_j x_{n-1-j})/dx_0: x_{n-1} at j = 0, x_0 at j = n-1.
        let first = if j == 0 { x[n - 1] } else { 0.0 };
        let last = if j == n - 1 { x[j] } else { 0.0 };
        let want = first + last;
        ad::close(&format!("mirror forward [{}]", j), ty[j], want, 1e-14);
    }
    println!("ok");
}

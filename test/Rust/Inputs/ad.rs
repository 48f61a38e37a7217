// What every Rust test shares (included with #[path] + mod, not a test):
// the plugin's entry points and markers as a Rust program declares them,
// and the checks, which exit with status 1 on a wrong value.
#![allow(dead_code)]
use std::ffi::c_void;

extern "C" {
    pub fn __ad_autodiff(f: *const c_void, ...) -> f64;
    pub fn __ad_fwddiff(f: *const c_void, ...) -> f64;
    pub static __ad_dup: i32;
    pub static __ad_dupnoneed: i32;
    pub static __ad_const: i32;
    pub static __ad_out: i32;
    /// The same entry point, declared with another result: the adjoints of
    /// two or three active scalars, in order (any prototype works).
    pub fn __ad_autodiff_d2(f: *const c_void, ...) -> D2;
    pub fn __ad_autodiff_d3(f: *const c_void, ...) -> D3;
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct D2 {
    pub dx: f64,
    pub dy: f64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct D3 {
    pub dx: f64,
    pub dy: f64,
    pub dz: f64,
}

// A marker is passed as a read of the static at the call site
// (`ad::__ad_const` in an unsafe block): the plugin recognises the load of
// the global, which a helper function returning it would hide at -O0.

/// |got - want| <= tol * (1 + |want|), else a message and exit status 1.
pub fn close(what: &str, got: f64, want: f64, tol: f64) {
    if !((got - want).abs() <= tol * (1.0 + want.abs())) {
        eprintln!("FAIL {}: got {:.17e}, want {:.17e}", what, got, want);
        std::process::exit(1);
    }
}

/// The central difference of f at x along coordinate i.
pub fn central(f: &dyn Fn(&[f64]) -> f64, x: &[f64], i: usize) -> f64 {
    let h = 1e-6 * (1.0 + x[i].abs());
    let (mut xp, mut xm) = (x.to_vec(), x.to_vec());
    xp[i] += h;
    xm[i] -= h;
    (f(&xp) - f(&xm)) / (2.0 * h)
}

/// Checks a gradient against central differences, coordinate by coordinate.
pub fn check_gradient(what: &str, f: &dyn Fn(&[f64]) -> f64, x: &[f64], g: &[f64]) {
    for i in 0..x.len() {
        close(&format!("{}[{}]", what, i), g[i], central(f, x, i), 1e-6);
    }
}

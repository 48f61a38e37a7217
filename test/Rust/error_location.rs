// An error in differentiated Rust code names the .rs file and line when the
// crate is built with -g (debug info survives to the link-time module), and
// says to add -g when it is not.
// REQUIRES: rustc
// RUN: not %rustc_ad -C opt-level=2 -g %s -o %t 2>&1 | FileCheck %s --check-prefix=DEBUG
// RUN: not %rustc_ad -C opt-level=2 %s -o %t 2>&1 | FileCheck %s --check-prefix=NODEBUG
use std::ffi::c_void;

extern "C" {
    fn __ad_autodiff(f: *const c_void, ...) -> f64;
    // Defined nowhere the plugin can see: no body, no rule.
    fn opaque_scale(x: f64) -> f64;
}

#[no_mangle]
pub extern "C" fn f(x: f64) -> f64 {
    let y = x * x;
    let z = unsafe { opaque_scale(y) };
    z + y
}

fn main() {
    let d = unsafe { __ad_autodiff(f as *const c_void, 2.0) };
    println!("{}", d);
}
// DEBUG: error_location.rs:18:{{[0-9]+}}: {{.*}}cannot differentiate 'f': call to 'opaque_scale', which has no body and no derivative rule
// NODEBUG: cannot differentiate 'f': call to 'opaque_scale', which has no body and no derivative rule{{.*}}compile with -g to see the source line

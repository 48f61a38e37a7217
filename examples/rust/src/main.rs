//! Differentiating ordinary Rust with ADPlugin: a least-squares fit of
//! y = a * exp(-b t) + c to samples, written with a struct, a Vec and
//! iterators. The gradient of the loss with respect to the parameters comes
//! from reverse mode (`__ad_autodiff`), a directional derivative from
//! forward mode (`__ad_fwddiff`); both are checked against the closed form.
use std::ffi::c_void;

// The plugin's entry points and markers. Any prototype works: the plugin
// reads the types at each call.
extern "C" {
    fn __ad_autodiff(f: *const c_void, ...) -> f64;
    fn __ad_fwddiff(f: *const c_void, ...) -> f64;
    static __ad_const: i32;
}

/// The model's parameters, laid out as C would (the shadow has this shape).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Params {
    pub a: f64,
    pub b: f64,
    pub c: f64,
}

impl Params {
    fn predict(&self, t: f64) -> f64 {
        self.a * (-self.b * t).exp() + self.c
    }
}

/// The mean squared residual. An `extern "C" fn` is what the entry points
/// take; inside it, any Rust: here a Vec of residuals grown by push.
#[no_mangle]
pub extern "C" fn loss(p: *const Params, t: *const f64, y: *const f64, n: usize) -> f64 {
    let p = unsafe { &*p };
    let (t, y) = unsafe { (std::slice::from_raw_parts(t, n), std::slice::from_raw_parts(y, n)) };
    let mut residuals = Vec::new();
    for (ti, yi) in t.iter().zip(y) {
        residuals.push(p.predict(*ti) - yi);
    }
    residuals.iter().map(|r| r * r).sum::<f64>() / n as f64
}

/// The closed form of d loss / d (a, b, c).
fn gradient_by_hand(p: &Params, t: &[f64], y: &[f64]) -> Params {
    let n = t.len() as f64;
    let mut g = Params::default();
    for (ti, yi) in t.iter().zip(y) {
        let e = (-p.b * ti).exp();
        let r = 2.0 * (p.predict(*ti) - yi) / n;
        g.a += r * e;
        g.b += r * (-p.a * ti * e);
        g.c += r;
    }
    g
}

fn check(what: &str, got: f64, want: f64) -> bool {
    let ok = (got - want).abs() <= 1e-12 * (1.0 + want.abs());
    println!("{:<28} {:>22.15e}  (closed form {:>22.15e}) {}", what, got, want,
             if ok { "ok" } else { "WRONG" });
    ok
}

fn main() {
    let t: Vec<f64> = (0..25).map(|i| 0.2 * i as f64).collect();
    let y: Vec<f64> = t.iter().map(|ti| 2.0 * (-0.7 * ti).exp() + 0.5 + 0.01 * ti.sin()).collect();
    let p = Params { a: 1.5, b: 0.5, c: 0.3 };
    let want = gradient_by_hand(&p, &t, &y);
    let n = t.len();

    // Reverse mode: the shadow of p receives the gradient. t and y are
    // data (__ad_const), passed by reading the marker at the call.
    let mut grad = Params::default();
    unsafe {
        __ad_autodiff(loss as *const c_void, &p as *const Params, &mut grad as *mut Params,
                      __ad_const, t.as_ptr(), __ad_const, y.as_ptr(), n);
    }
    println!("loss = {:.6}", loss(&p, t.as_ptr(), y.as_ptr(), n));
    let mut ok = check("reverse d loss / d a", grad.a, want.a);
    ok &= check("reverse d loss / d b", grad.b, want.b);
    ok &= check("reverse d loss / d c", grad.c, want.c);

    // Forward mode: the derivative along a direction of the parameters.
    let dir = Params { a: 1.0, b: -2.0, c: 0.5 };
    let along = unsafe {
        __ad_fwddiff(loss as *const c_void, &p as *const Params, &dir as *const Params,
                     __ad_const, t.as_ptr(), __ad_const, y.as_ptr(), n)
    };
    ok &= check("forward along (1, -2, 0.5)", along, want.a - 2.0 * want.b + 0.5 * want.c);
    if !ok {
        std::process::exit(1);
    }
}

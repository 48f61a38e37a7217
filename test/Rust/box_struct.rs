// A repr(C) struct passed by pointer (its shadow a struct of the same
// shape), Box::new of a struct and a Box<[f64]> made from a Vec (which
// shrinks it: __rust_realloc to a smaller size) inside the differentiated
// function, and a struct written as the output. Reverse and forward against
// the closed form.
// REQUIRES: rustc
// RUN: %rustc_ad -C opt-level=3 %s -o %t.O3 && %run %t.O3
// RUN: %rustc_ad -C opt-level=2 %s -o %t.O2 && %run %t.O2
#[path = "Inputs/ad.rs"]
mod ad;
use std::ffi::c_void;

#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct Particle {
    pub pos: [f64; 3],
    pub mass: f64,
    pub id: u32,
}

/// Kinetic-like energy m |p|^2 / 2 of a boxed copy scaled by the squares
/// of a slice boxed after shrinking: m/2 |p|^2 * sum_i w_i^2.
#[no_mangle]
pub extern "C" fn energy(p: *const Particle, w: *const f64, n: usize) -> f64 {
    let p = unsafe { &*p };
    let boxed = Box::new(Particle { pos: p.pos, mass: p.mass, id: p.id + 1 });
    let mut v = Vec::with_capacity(4 * n + 8);
    for i in 0..n {
        v.push(unsafe { *w.add(i) });
    }
    let squares: Box<[f64]> = v.into_iter().map(|t| t * t).collect::<Vec<f64>>().into_boxed_slice();
    let norm2: f64 = boxed.pos.iter().map(|c| c * c).sum();
    0.5 * boxed.mass * norm2 * squares.iter().sum::<f64>()
}

/// out = a particle moved by dt along its position, mass squared.
#[no_mangle]
pub extern "C" fn step(p: *const Particle, out: *mut Particle, dt: f64) {
    let p = unsafe { &*p };
    // The id is computed on, not only copied: an integer that is only
    // loaded and stored could be the bits of a float (docs/RUST.md, limits).
    let mut q = Box::new(Particle { pos: p.pos, mass: p.mass, id: p.id + 1 });
    for c in q.pos.iter_mut() {
        *c += dt * *c;
    }
    q.mass = p.mass * p.mass;
    // Field by field: a whole-struct copy (`*out = *q`, `Box::new(*p)`)
    // moves the id and the padding as bytes that nothing types
    // (docs/RUST.md, limits).
    let out = unsafe { &mut *out };
    out.pos = q.pos;
    out.mass = q.mass;
    out.id = q.id;
}

fn main() {
    let p = Particle { pos: [0.3, -1.2, 0.7], mass: 2.5, id: 7 };
    let w = [0.4, 1.1, -0.6];
    let n2: f64 = p.pos.iter().map(|c| c * c).sum();
    let s2: f64 = w.iter().map(|t| t * t).sum();

    let mut dp = Particle::default();
    let mut dw = [0.0; 3];
    unsafe {
        ad::__ad_autodiff(energy as *const c_void, &p as *const Particle,
                          &mut dp as *mut Particle, w.as_ptr(), dw.as_mut_ptr(), 3usize);
    }
    for k in 0..3 {
        ad::close("d/dpos", dp.pos[k], p.mass * p.pos[k] * s2, 1e-14);
        ad::close("d/dw", dw[k], p.mass * n2 * w[k], 1e-14);
    }
    ad::close("d/dmass", dp.mass, 0.5 * n2 * s2, 1e-14);

    // Forward along the mass and w_0.
    let mut tp = Particle::default();
    tp.mass = 1.0;
    let tw = [1.0, 0.0, 0.0];
    let d = unsafe {
        ad::__ad_fwddiff(energy as *const c_void, &p as *const Particle,
                         &tp as *const Particle, w.as_ptr(), tw.as_ptr(), 3usize)
    };
    ad::close("forward", d, dp.mass + dw[0], 1e-14);

    // The output struct's shadow seeds the reverse sweep: seed pos = 1 and
    // mass = 1 gives d/dpos_k = 1 + dt, d/dmass = 2 m, d/ddt = sum pos.
    let dt = 0.1;
    let mut out = Particle::default();
    let mut dout = Particle { pos: [1.0; 3], mass: 1.0, id: 0 };
    let mut dp = Particle::default();
    let ddt = unsafe {
        ad::__ad_autodiff(step as *const c_void, &p as *const Particle,
                          &mut dp as *mut Particle, &mut out as *mut Particle,
                          &mut dout as *mut Particle, dt)
    };
    for k in 0..3 {
        ad::close("step primal", out.pos[k], p.pos[k] * (1.0 + dt), 1e-15);
        ad::close("step d/dpos", dp.pos[k], 1.0 + dt, 1e-15);
    }
    ad::close("step d/dmass", dp.mass, 2.0 * p.mass, 1e-15);
    ad::close("step d/ddt", ddt, p.pos.iter().sum(), 1e-15);

    let mut tout = Particle::default();
    let tp = Particle { pos: [1.0, 0.0, 0.0], mass: 1.0, id: 0 };
    unsafe {
        ad::__ad_fwddiff(step as *const c_void, &p as *const Particle, &tp as *const Particle,
                         &mut out as *mut Particle, &mut tout as *mut Particle, dt, 0.0);
    }
    ad::close("step forward pos", tout.pos[0], 1.0 + dt, 1e-15);
    ad::close("step forward mass", tout.mass, 2.0 * p.mass, 1e-15);
    println!("ok");
}

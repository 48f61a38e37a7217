/* ad.h - the public interface of the ADPlugin automatic differentiation plugin.
 *
 * Compile with: clang-22 -fpass-plugin=/path/to/ADPlugin.so prog.c -lm
 * The plugin replaces every call to an entry point below with a call to a
 * derivative it synthesizes; README.md and docs/ (the user guide) give the
 * calling convention, the markers and what the plugin guarantees.
 */
#ifndef AD_H
#define AD_H

#ifdef __cplusplus
extern "C" {
#endif

/* CUDA: the entry points may be called from host and device code; the
 * markers are device variables in the device compilation (which defines
 * __CUDA_ARCH__) and host variables in the host one. */
#if defined(__CUDA__) && defined(__CUDA_ARCH__)
#define __AD_MARKER_SPACE __attribute__((device))
#else
#define __AD_MARKER_SPACE
#endif
#if defined(__CUDA__)
#define __AD_ENTRY_SPACE __attribute__((host)) __attribute__((device))
#else
#define __AD_ENTRY_SPACE
#endif

/* Activity markers. Pass one before an argument to say how it is
 * differentiated. The plugin recognises them by the global they are loaded from
 * and removes every reference, so no definition is needed at link time. */
/* pointer: value, then shadow; adjoints accumulate (+=) */
extern __AD_MARKER_SPACE int __ad_dup;
/* as __ad_dup; primal final contents not needed (a gradient may leave out
 * the function's stores there: the contents are then unspecified) */
extern __AD_MARKER_SPACE int __ad_dupnoneed;
/* not differentiated */
extern __AD_MARKER_SPACE int __ad_const;
/* reverse mode, scalar by value: its adjoint is returned */
extern __AD_MARKER_SPACE int __ad_out;

/* Reverse mode: returns the adjoints of the __ad_out arguments. */
__AD_ENTRY_SPACE double __ad_autodiff(void *f, ...);
/* Forward mode: returns the tangent of f's return value. */
__AD_ENTRY_SPACE double __ad_fwddiff(void *f, ...);

/* Custom derivative rules (docs/OPTIONS.md, "Custom rules"). Write them at
 * file scope, after the functions they name are declared:
 *
 *   AD_FORWARD_RULE(f, f_fwd);  R f_fwd(x1..xn, dx1..)      returns df
 *   AD_REVERSE_RULE(f, f_rev);  void f_rev(x1..xn, R dret, P *dx1..)  adds (+=)
 *   AD_INACTIVE(f);             calls to f carry no derivative
 *
 * where dx1.. are one tangent (forward) or one adjoint pointer (reverse) per
 * floating-point parameter of f, in order; integer and pointer parameters
 * pass their value only. Each macro is a `used` static table that keeps the
 * functions alive until the plugin reads it (and then deletes it); the
 * plugin also keeps f from being inlined before it runs. */
typedef void (*__ad_rule_fn)(void);
#define __AD_RULE_NAME2(kind, n) __ad_rule_##kind##_##n
#define __AD_RULE_NAME(kind, n) __AD_RULE_NAME2(kind, n)
/* __COUNTER__ (unique names even when a header and a file register on the
 * same line) is an extension before C2y; -pedantic should not flag ours. */
#define __AD_REGISTER(kind, ...)                                               \
  _Pragma("clang diagnostic push")                                             \
      _Pragma("clang diagnostic ignored \"-Wc2y-extensions\"")                 \
          __attribute__((used)) static __ad_rule_fn const                      \
          __AD_RULE_NAME(kind, __COUNTER__)[] = {__VA_ARGS__} _Pragma(         \
              "clang diagnostic pop")
#define AD_FORWARD_RULE(f, f_fwd)                                              \
  __AD_REGISTER(forward, (__ad_rule_fn)(f), (__ad_rule_fn)(f_fwd))
#define AD_REVERSE_RULE(f, f_rev)                                              \
  __AD_REGISTER(reverse, (__ad_rule_fn)(f), (__ad_rule_fn)(f_rev))
#define AD_INACTIVE(f) __AD_REGISTER(inactive, (__ad_rule_fn)(f))

#ifdef __cplusplus
}
#endif

#endif /* AD_H */

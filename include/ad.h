/* ad.h - the public interface of the ADPlugin automatic differentiation plugin.
 *
 * Compile with: clang-22 -fpass-plugin=/path/to/ADPlugin.so prog.c -lm
 * The plugin replaces every call to an entry point below with a call to a
 * derivative it synthesizes; see README.md and ../shared/API.md for the contract.
 */
#ifndef AD_H
#define AD_H

#ifdef __cplusplus
extern "C" {
#endif

/* Activity markers. Pass one before an argument to say how it is differentiated.
 * The plugin recognises them by the global they are loaded from and removes every
 * reference, so no definition is needed at link time. */
extern int __ad_dup;       /* pointer: value, then shadow; adjoints accumulate (+=) */
extern int __ad_dupnoneed; /* as __ad_dup; primal final contents not needed */
extern int __ad_const;     /* not differentiated */
extern int __ad_out;       /* reverse mode, scalar by value: its adjoint is returned */

/* Reverse mode: returns the adjoints of the __ad_out arguments. */
double __ad_autodiff(void *f, ...);
/* Forward mode: returns the tangent of f's return value. */
double __ad_fwddiff(void *f, ...);

#ifdef __cplusplus
}
#endif

#endif /* AD_H */

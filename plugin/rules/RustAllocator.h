//===- RustAllocator.h - Shadows through Rust's own allocator -*- C++ -*-===//
//
// A Rust program's heap goes through its global allocator: __rust_alloc,
// __rust_alloc_zeroed, __rust_realloc and __rust_dealloc, which call the
// default allocator's __rdl_* or a #[global_allocator]'s __rg_* (rustc
// mangles all of them in v0, `_RNvCs<hash>_7___rustc12___rust_alloc`).
// The shadow of such memory is allocated, grown and freed by the same
// family: a #[global_allocator] (a counting or arena allocator) may free
// only blocks it allocated, and Rust frees a shadow Vec the caller built
// with __rust_dealloc. libc's malloc and free would break both.
//
//===----------------------------------------------------------------------===//
#ifndef AD_RULES_RUSTALLOCATOR_H
#define AD_RULES_RUSTALLOCATOR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/DerivedTypes.h"
#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace ad {

/// What a Rust allocator function does: its name's last word.
enum class RustAllocatorOp { Alloc, Dealloc };

/// The name of \p Op's function in the family of \p Name (one of Rust's
/// allocator functions, plain or v0-mangled): `__rdl_realloc` gives
/// `__rdl_dealloc`, `..._7___rustc14___rust_realloc` gives
/// `..._7___rustc14___rust_dealloc`; empty if \p Name is not one.
std::string rustAllocatorSibling(llvm::StringRef Name, RustAllocatorOp Op);

/// That function in \p M, declared if the module lacks it:
/// ptr (i64 size, i64 align) for Alloc, void (ptr, i64 size, i64 align) for
/// Dealloc. A null callee if \p Name is not an allocator function.
llvm::FunctionCallee rustAllocatorFunction(llvm::Module &M,
                                           llvm::StringRef Name,
                                           RustAllocatorOp Op);

} // namespace ad

#endif // AD_RULES_RUSTALLOCATOR_H

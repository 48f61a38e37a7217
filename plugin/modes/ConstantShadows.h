//===- ConstantShadows.h - Shadows of read-only globals ---------------------===//
//
// A read-only global (a table of coefficients) carries no derivative, but its
// address may flow where a shadow is needed: stored in a struct next to
// differentiated pointers, or merged in a phi with one. Its shadow is a
// private global of the same type, zero but for pointers to other shadows.
// Forward mode only reads it: a constant ("<name>.ad.zero"), so tangents
// loaded from it fold to zero. Reverse mode only adds adjoints into it and
// never reads them back: a separate writable sink ("<name>.ad.sink"), so
// what it collects never reaches a tangent. A mutable global that
// differentiated code writes derivatives into has a shadow of its own,
// "<name>.ad.shadow", made by MutableGlobals.cpp and used by both modes.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_CONSTANTSHADOWS_H
#define AD_MODES_CONSTANTSHADOWS_H

#include "llvm/IR/Constant.h"

namespace llvm {
class GlobalVariable;
class Module;
} // namespace llvm

namespace ad {

/// The shadow of a constant pointer: null for null, the zero shadow of a
/// read-only global (or of a constant GEP into one), the shadow of a
/// mutable global that MutableGlobals.cpp gave one; nullptr when the
/// constant points to other mutable memory, which has no shadow.
llvm::Constant *shadowOfConstant(llvm::Module &M, llvm::Constant *C,
                                 bool ForReverse);


/// The name suffix of a mutable global's shadow.
constexpr const char *MutableShadowSuffix = ".ad.shadow";

/// The shadow MutableGlobals.cpp gave mutable global \p GV, or nullptr.
llvm::GlobalVariable *mutableGlobalShadow(const llvm::GlobalVariable &GV);

/// Whether \p V is a constant pointer with a shadow (into a read-only
/// global); it can then be copied from like differentiated memory.
bool hasConstantShadow(const llvm::Value *V);

} // namespace ad

#endif

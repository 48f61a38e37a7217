//===- ConstantCallees.h - Calls through pointers fixed at compile time ---===//
//
// Programs call library functions through pointers: an allocator kept in a
// static variable or a constant table of operations, a local variable set
// once. Where the pointer can only ever hold one function, the canonical
// primal calls that function directly, so the rule tables see it. Only what
// the module proves is resolved: a pointer read from a global that nothing
// writes (declared const, or internal with no store), or a select or phi
// whose every incoming value is the same function. A pointer that arrives
// as an argument or from writable memory stays an indirect call, which the
// builders reject when derivatives would flow through it.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_CONSTANTCALLEES_H
#define AD_MODES_CONSTANTCALLEES_H

namespace llvm {
class Function;
} // namespace llvm

namespace ad {

/// Turns every call in \p F whose callee pointer is fixed at compile time
/// into a direct call; returns how many.
unsigned resolveConstantCallees(llvm::Function &F);

} // namespace ad

#endif

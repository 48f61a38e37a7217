//===- HeapEscape.h - Heap memory the caller keeps after a gradient -------===//
//
// A gradient frees the shadow of each allocation where its reverse sweep
// reaches the allocation: the memory was scratch, freed by the program or
// lost with the function. A function may instead hand the memory to its
// caller, storing its address into memory the caller sees (a struct passed
// by pointer, a global): the program keeps it after the call, and the
// mirrored store put the shadow's address into the caller's shadow. That
// shadow must then outlive the gradient too, as the memory outlives the
// call; freeing it would leave the caller's shadow pointing at freed memory.
//
// handedToCaller tells such allocations apart: the address (through offsets,
// casts, phis, selects, and the function's own stack slots that hold it) is
// stored into memory reached from a parameter or a global, and no call in
// the function frees it (neither the address itself nor a load of it from
// where it was stored: `free(heap)` of a global). Calls it is passed to are assumed to keep it: a
// helper that stores it where the caller sees it is not found.
//
//===----------------------------------------------------------------------===//
#ifndef AD_RULES_HEAPESCAPE_H
#define AD_RULES_HEAPESCAPE_H

namespace llvm {
class CallBase;
}

namespace ad {

/// Whether the memory \p Allocation returns (malloc, realloc, ...) may
/// still be the caller's after the function returns (see above).
bool handedToCaller(const llvm::CallBase &Allocation);

} // namespace ad

#endif

//===- TypeAnalysis.cpp - What the bytes of memory hold -------------------===//
//
// The queries: memoryAt explores (TypeExplorer.h) from a pointer, collecting
// what each pointer it reaches says (TypeFacts.h); MemoryTypes resolves the
// facts over a window (TypeResolution.cpp).
//
//===----------------------------------------------------------------------===//
#include "analysis/TypeAnalysis.h"
#include "analysis/ArgumentTypes.h"
#include "analysis/TypeExplorer.h"
#include "analysis/TypeFacts.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::opt<bool> ExplainTypes(
    "ad-explain-types", cl::Hidden,
    cl::desc("Print what the type analysis decides for every copy, and the "
             "facts and pointers behind what it cannot type (to stderr)"));

namespace ad {

MemoryTypes TypeAnalysis::memoryAt(const Value *P, bool FollowFields) const {
  return exploreMemory(DL, Callers, P, FollowFields);
}

CopyContent TypeAnalysis::integerCopyContent(const Instruction &Load,
                                             const Instruction *Store,
                                             uint64_t Size,
                                             bool Precise) const {
  // Strict aliasing: an access tagged with a scalar type moves that type.
  // (A node_base pointer of a red-black tree may point to the header or to
  // a node, so the memory behind it is typed every way at once; the tag of
  // the header's count field still says "long".)
  if (std::optional<CopyContent> C = contentByTag(Load, Size))
    return *C;
  if (Store)
    if (std::optional<CopyContent> C = contentByTag(*Store, Size))
      return *C;
  const Value *Src = cast<LoadInst>(Load).getPointerOperand();
  CopyContent C = memoryAt(Src).contentOf(Size, Precise);
  if (C.AllKnown || C.AnyFloat)
    return C;
  // Nothing types some of the bytes: ask again, following pointers through
  // the fields that hold them, and take that answer only if it finds
  // integers there and nothing else. (Following fields merges every object
  // a field may point to, the nodes of a tree with its header: a layout
  // resolved from that is not trusted, but "only integers, everywhere it
  // looked" types a C++ iterator's `int *` at -O0.)
  CopyContent Deeper =
      memoryAt(Src, /*FollowFields=*/true).contentOf(Size, Precise);
  bool OnlyIntegers = Deeper.AllKnown && !Deeper.AnyFloat && !Deeper.AnyPointer;
  return OnlyIntegers ? Deeper : C;
}

/// With -ad-explain-types, what a query from \p P that found no layout was
/// given: every pointer reached, at which offset, and what it said.
static void explain(const Instruction &At, const Value *P, const MemoryTypes &M,
                    const DataLayout &DL, const ArgumentTypes *Callers) {
  if (!ExplainTypes)
    return;
  errs() << "ad-explain-types: cannot type " << At.getFunction()->getName()
         << ": " << At << "\n  facts:";
  printFacts(errs(), M);
  errs() << (M.Truncated ? " (truncated)\n" : "\n");
  exploreMemory(DL, Callers, P, /*FollowFields=*/false, /*Explain=*/true);
}

void TypeAnalysis::explainContent(const Instruction &At, const Value *P) const {
  if (ExplainTypes)
    explain(At, P, memoryAt(P), DL, Callers);
}

std::optional<MemoryLayout>
TypeAnalysis::layoutOfCopy(const CallBase &Copy) const {
  // The copy is one of the destination's uses, so exploring from it
  // reaches the source's side (over the copied bytes) and the copy's own
  // metadata.
  std::optional<uint64_t> Len;
  if (auto *C = dyn_cast<ConstantInt>(Copy.getArgOperand(2)))
    Len = C->getZExtValue();
  MemoryTypes M = memoryAt(Copy.getArgOperand(0));
  std::optional<MemoryLayout> L = M.layout(Len);
  if (!L)
    explain(Copy, Copy.getArgOperand(0), M, DL, Callers);
  else if (ExplainTypes) {
    errs() << "ad-explain-types: " << Copy.getFunction()->getName() << ": "
           << Copy << "\n  layout: stride " << L->Stride << ",";
    for (const FloatField &F : L->Floats)
      errs() << " " << *F.Ty << "@" << F.Offset;
    for (const FloatField &F : L->Others)
      errs() << " ptr@" << F.Offset;
    errs() << "\n  facts:";
    printFacts(errs(), M);
    errs() << "\n";
  }
  return L;
}

std::optional<MemoryLayout>
TypeAnalysis::layoutOfReallocation(const CallBase &Realloc) const {
  MemoryTypes M = memoryAt(&Realloc);
  std::optional<MemoryLayout> L = M.layout(std::nullopt);
  if (!L)
    explain(Realloc, &Realloc, M, DL, Callers);
  return L;
}

} // namespace ad

//===- TypeResolution.cpp - Facts resolved over a window of bytes ---------===//
//
// The facts the explorer gathered (TypeExplorer.h) may overlap and
// disagree; MemoryTypes::layout and contentOf place their occurrences in a
// window of bytes, most specific first (TypeAnalysis.h says which wins),
// and answer only when every byte is typed, one way.
//
//===----------------------------------------------------------------------===//
#include "analysis/TypeAnalysis.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/Support/raw_ostream.h"
#include <numeric>
#include <tuple>

using namespace llvm;

namespace ad {
namespace {

//===----------------------------------------------------------------------===//

/// One fact's occurrence inside the window.
struct Instance {
  uint64_t Start, Size;
  ByteKind Kind;
  Type *FloatTy;
  uint64_t Specificity; ///< Fixed facts first, then longer periods.
  bool Whole;           ///< Not cut by the window or the fact's range.
};

struct Resolved {
  SmallVector<Instance, 16> Placed; ///< What each byte holds, no overlaps.
  bool Conflict = false;
  bool AllCovered = false;
  /// A float or pointer that the window cuts (part of a double copied).
  bool Cut = false;
};

/// The occurrences of the facts in [0, Width). With \p Modulo the window
/// is one element of an array, and occurrences are taken modulo it.
SmallVector<Instance, 32> occurrences(ArrayRef<TypedBytes> Facts,
                                      uint64_t Width, bool Modulo) {
  SmallVector<Instance, 32> All;
  constexpr size_t MaxInstances = 1 << 16;
  for (const TypedBytes &F : Facts) {
    if (F.Size == 0)
      continue;
    uint64_t Spec = F.Period ? F.Period : UINT64_MAX;
    auto AddAt = [&](int64_t Start) {
      int64_t End = Start + int64_t(F.Size);
      int64_t Lo = F.Lo, Hi = F.Hi;
      if (!Modulo) {
        Lo = std::max<int64_t>(Lo, 0);
        Hi = std::min<int64_t>(Hi, Width);
      }
      int64_t S = std::max(Start, Lo), E = std::min(End, Hi);
      if (S >= E)
        return;
      int64_t W = Width;
      uint64_t At = Modulo ? uint64_t(((S % W) + W) % W) : uint64_t(S);
      bool Whole = S == Start && E == End && At + (E - S) <= Width;
      All.push_back({At, uint64_t(E - S), F.Kind, F.FloatTy, Spec, Whole});
    };
    if (!F.Period) {
      AddAt(F.Offset);
      continue;
    }
    // Every occurrence that meets the window, from the last one that
    // starts at or before 0.
    int64_t P = F.Period;
    int64_t First = F.Offset % P;
    if (First > 0)
      First -= P;
    for (int64_t S = First; S < int64_t(Width) && All.size() < MaxInstances;
         S += P)
      AddAt(S);
  }
  return All;
}

/// Places the occurrences, most specific first. A less specific one that
/// meets a placed one is dropped (a struct's int field beats the doubles of
/// an unbounded array view of it; a double "every byte", seen from a
/// pointer at an unknown offset, beats nothing it meets). Between equally
/// specific ones, a float or a pointer beats an integer (a union, memory
/// reused) and two different floats or a float and a pointer conflict.
Resolved resolve(ArrayRef<TypedBytes> Facts, uint64_t Width, bool Modulo) {
  SmallVector<Instance, 32> All = occurrences(Facts, Width, Modulo);
  llvm::stable_sort(All, [](const Instance &A, const Instance &B) {
    if (A.Specificity != B.Specificity)
      return A.Specificity > B.Specificity;
    return A.Kind != ByteKind::Integer && B.Kind == ByteKind::Integer;
  });
  Resolved R;
  SmallVector<bool, 64> Covered(Width, false);
  for (const Instance &I : All) {
    for (uint64_t B = I.Start; B < I.Start + I.Size && B < Width; ++B)
      Covered[B] = true;
    bool Skip = false;
    for (const Instance &P : R.Placed) {
      bool Overlaps = I.Start < P.Start + P.Size && P.Start < I.Start + I.Size;
      if (!Overlaps)
        continue;
      Skip = true;
      bool Same = I.Start == P.Start && I.Size == P.Size && I.Kind == P.Kind &&
                  I.FloatTy == P.FloatTy;
      if (!Same && P.Specificity == I.Specificity &&
          I.Kind != ByteKind::Integer)
        R.Conflict = true;
    }
    if (Skip)
      continue;
    if (!I.Whole && I.Kind != ByteKind::Integer)
      R.Cut = true;
    else
      R.Placed.push_back(I);
  }
  R.AllCovered = llvm::all_of(Covered, [](bool B) { return B; });
  llvm::sort(R.Placed, [](const Instance &A, const Instance &B) {
    return A.Start < B.Start;
  });
  return R;
}

MemoryLayout toLayout(const Resolved &R, uint64_t Stride) {
  MemoryLayout L;
  L.Stride = Stride;
  for (const Instance &I : R.Placed) {
    if (I.Kind == ByteKind::Float)
      L.Floats.push_back({I.Start, I.FloatTy});
    else if (I.Kind == ByteKind::Pointer) {
      L.HasPointers = true;
      L.Others.push_back({I.Start, nullptr});
    }
  }
  return L;
}

/// The shortest period (dividing \p L's stride) that \p L repeats with.
MemoryLayout compress(MemoryLayout L) {
  for (uint64_t P = 1; P < L.Stride; ++P) {
    if (L.Stride % P)
      continue;
    auto Repeats = [&](ArrayRef<FloatField> Fs) {
      for (const FloatField &F : Fs) {
        uint64_t Next = F.Offset + P;
        if (Next >= L.Stride)
          continue;
        if (!llvm::any_of(Fs, [&](const FloatField &G) {
              return G.Offset == Next && G.Ty == F.Ty;
            }))
          return false;
      }
      return true;
    };
    if (!Repeats(L.Floats) || !Repeats(L.Others))
      continue;
    // And nothing starts in the first period that is absent later.
    MemoryLayout Short;
    Short.Stride = P;
    Short.HasPointers = L.HasPointers;
    for (const FloatField &F : L.Floats)
      if (F.Offset < P)
        Short.Floats.push_back(F);
    for (const FloatField &F : L.Others)
      if (F.Offset < P)
        Short.Others.push_back(F);
    if (Short.Floats.size() * (L.Stride / P) == L.Floats.size() &&
        Short.Others.size() * (L.Stride / P) == L.Others.size())
      return Short;
  }
  return L;
}

} // namespace

void MemoryTypes::deduplicate() {
  auto Key = [](const TypedBytes &F) {
    return std::make_tuple(F.Offset, F.Size, F.Period, F.Kind, F.FloatTy, F.Lo,
                           F.Hi);
  };
  llvm::sort(Facts, [&](const TypedBytes &A, const TypedBytes &B) {
    return Key(A) < Key(B);
  });
  Facts.erase(std::unique(Facts.begin(), Facts.end(),
                          [&](const TypedBytes &A, const TypedBytes &B) {
                            return Key(A) == Key(B);
                          }),
              Facts.end());
}

std::optional<MemoryLayout>
MemoryTypes::layout(std::optional<uint64_t> Len) const {
  if (Len && *Len <= (1u << 16)) {
    if (*Len == 0)
      return MemoryLayout{};
    Resolved R = resolve(Facts, *Len, /*Modulo=*/false);
    if (R.Conflict || R.Cut || !R.AllCovered)
      return std::nullopt;
    return compress(toLayout(R, *Len));
  }
  // A run-time length: the memory is an array of some element, whose size
  // is the longest period among the facts (the others divide it), or, with
  // no periodic fact, the extent of the fixed facts from 0.
  // (A fact that repeats closer than its own size, a double "every byte"
  // seen from a pointer at an unknown offset, says nothing of the element.)
  uint64_t Element = 0;
  for (const TypedBytes &F : Facts)
    if (F.Period && F.Period >= F.Size)
      Element = Element ? std::lcm(Element, F.Period) : F.Period;
  if (!Element)
    for (const TypedBytes &F : Facts)
      if (F.Offset >= 0)
        Element = std::max<uint64_t>(Element, F.Offset + F.Size);
  if (!Element || Element > (1u << 12))
    return std::nullopt;
  if (Len && *Len % Element)
    return std::nullopt;
  Resolved R = resolve(Facts, Element, /*Modulo=*/true);
  if (R.Conflict || R.Cut || !R.AllCovered)
    return std::nullopt;
  return compress(toLayout(R, Element));
}

CopyContent MemoryTypes::contentOf(uint64_t Size, bool Precise) const {
  CopyContent C;
  SmallVector<TypedBytes, 16> Kept;
  for (const TypedBytes &F : Facts)
    if (!Precise || !F.Period || F.Period >= F.Size)
      Kept.push_back(F);
  Resolved R = resolve(Kept, Size, /*Modulo=*/false);
  C.AllKnown = R.AllCovered && !R.Conflict && !R.Cut;
  C.AnyFloat = R.Cut;
  for (const Instance &I : R.Placed) {
    C.AnyFloat |= I.Kind == ByteKind::Float;
    C.AnyPointer |= I.Kind == ByteKind::Pointer;
  }
  if (!R.Conflict && !R.Cut && R.Placed.size() == 1) {
    const Instance &I = R.Placed.front();
    if (I.Kind == ByteKind::Float && I.Start == 0 && I.Size == Size)
      C.WholeFloat = I.FloatTy;
  }
  if (R.Conflict) // Two float types, or a float and a pointer: unknown.
    C.AnyFloat = true;
  return C;
}

void printFacts(raw_ostream &OS, const MemoryTypes &M) {
  SmallVector<TypedBytes, 16> Sorted(M.facts().begin(), M.facts().end());
  llvm::stable_sort(Sorted, [](const TypedBytes &A, const TypedBytes &B) {
    return A.Offset < B.Offset;
  });
  for (const TypedBytes &F : Sorted) {
    OS << " ";
    if (F.Kind == ByteKind::Float)
      OS << *F.FloatTy;
    else
      OS << (F.Kind == ByteKind::Pointer ? "ptr" : "int") << F.Size * 8;
    OS << "@" << F.Offset;
    if (F.Period)
      OS << "+" << F.Period << "k";
    if (F.Lo != INT64_MIN || F.Hi != INT64_MAX)
      OS << " in [" << F.Lo << "," << F.Hi << ")";
  }
}

} // namespace ad

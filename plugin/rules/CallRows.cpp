//===- CallRows.cpp - The table of callee kinds ---------------------------===//
//
// One row per CalleeKind, in the enum's order (checked below). A row's
// functions are in the file of its topic: MathCalls.cpp, MemoryCalls.cpp,
// MaskedMemory.cpp, TapeCalls.cpp, MirrorCalls.cpp, CustomCalls.cpp,
// PlainCalls.cpp. A missing function means the mode has nothing to do.
//
//===----------------------------------------------------------------------===//
#include "rules/CallRows.h"
#include "rules/CustomCalls.h"
#include "rules/MaskedMemory.h"
#include "rules/MathCalls.h"
#include "rules/MemoryCalls.h"
#include "rules/MirrorCalls.h"
#include "rules/PlainCalls.h"
#include "rules/TapeCalls.h"

using namespace llvm;

namespace ad {
namespace {

/// A function written once for the forward direction serves forward mode
/// too (a shadow allocation is the same in both).
template <bool (*F)(ShadowEmitter &, CallBase &, const CalleeInfo &)>
bool sameInForwardMode(TangentEmitter &E, CallBase &Call,
                       const CalleeInfo &Info) {
  return F(E, Call, Info);
}

constexpr DerivativeFlow Marker = DerivativeFlow::Marker,
                         Inactive = DerivativeFlow::Inactive,
                         ToResult = DerivativeFlow::ToResult,
                         Anywhere = DerivativeFlow::Anywhere,
                         Unknown = DerivativeFlow::Unknown;
constexpr bool Writes = true, NoWrites = false;
constexpr bool Fresh = true, NotFresh = false;
constexpr PointerRelation Unrelated = PointerRelation::None;

// clang-format off
constexpr CallRow Rows[] = {
//  Kind                     Flow      Memory    Result     Pointers
//    Activity               Tangent (forward mode)
//    Forward (forward sweep)                       Adjoint (reverse sweep)
  {CalleeKind::NoEffect,     Marker,   NoWrites, NotFresh,  Unrelated,
     nullptr,                nullptr,
     nullptr,                                        nullptr},
  {CalleeKind::Inactive,     Inactive, Writes,   NotFresh,  Unrelated,
     nullptr,                nullptr,
     nullptr,                                        nullptr},
  {CalleeKind::Math,         ToResult, NoWrites, NotFresh,  Unrelated,
     mathActivity,           mathTangent,
     nullptr,                                        mathAdjoint},
  {CalleeKind::ComplexMath,  ToResult, NoWrites, NotFresh,  Unrelated,
     everyArgumentActivity,  complexCallTangent,
     nullptr,                                        complexCallAdjoint},
  {CalleeKind::Malloc,       Anywhere, Writes,   Fresh,     Unrelated,
     freshMemoryActivity,    sameInForwardMode<allocationShadow>,
     allocationShadow,                               allocationAdjoint},
  {CalleeKind::Calloc,       Anywhere, Writes,   Fresh,     Unrelated,
     freshMemoryActivity,    sameInForwardMode<allocationShadow>,
     allocationShadow,                               allocationAdjoint},
  {CalleeKind::AllocOut,     Anywhere, Writes,   NotFresh,  Unrelated,
     nullptr,                sameInForwardMode<allocationOutShadow>,
     allocationOutShadow,                            allocationAdjoint},
  {CalleeKind::Realloc,      Anywhere, Writes,   Fresh,
     PointerRelation::ResultContinuesFirst,
     freshMemoryActivity,    reallocTangent,
     reallocForward,                                 reallocAdjoint},
  {CalleeKind::Free,         Anywhere, Writes,   NotFresh,  Unrelated,
     nullptr,                freeTangent,
     nullptr,                                        nullptr},
  {CalleeKind::MemCopy,      Anywhere, Writes,   NotFresh,
     PointerRelation::CopiesSecondToFirst,
     memCopyActivity,        memCopyTangent,
     memCopyForward,                                 memCopyAdjoint},
  {CalleeKind::MemSet,       Anywhere, Writes,   NotFresh,  Unrelated,
     nullptr,                memSetTangent,
     nullptr,                                        memSetAdjoint},
  {CalleeKind::FPReduction,  ToResult, NoWrites, NotFresh,  Unrelated,
     everyArgumentActivity,  reductionTangent,
     nullptr,                                        reductionAdjoint},
  {CalleeKind::MaskedLoad,   ToResult, Writes,   NotFresh,  Unrelated,
     maskedLoadActivity,     maskedAccessTangent,
     maskedAccessForward,                            maskedAccessAdjoint},
  {CalleeKind::MaskedStore,  Anywhere, Writes,   NotFresh,  Unrelated,
     nullptr,                maskedAccessTangent,
     maskedAccessForward,                            maskedAccessAdjoint},
  {CalleeKind::TapePush,     Anywhere, Writes,   NotFresh,  Unrelated,
     tapeRecordActivity,     tapeCallTangent,
     tapeCallForward,                                tapeCallAdjoint},
  {CalleeKind::TapePop,      Anywhere, Writes,   NotFresh,  Unrelated,
     tapeRecordActivity,     tapeCallTangent,
     tapeCallForward,                                tapeCallAdjoint},
  {CalleeKind::TapeReserve,  Anywhere, Writes,   NotFresh,  Unrelated,
     nullptr,                tapeCallTangent,
     tapeCallForward,                                tapeCallAdjoint},
  {CalleeKind::TapeFree,     Anywhere, Writes,   NotFresh,  Unrelated,
     nullptr,                tapeCallTangent,
     tapeCallForward,                                tapeCallAdjoint},
  {CalleeKind::MirrorCall,   Anywhere, Writes,   NotFresh,  Unrelated,
     mirrorActivity,         sameInForwardMode<mirrorCall>,
     mirrorCall,                                     nullptr},
  {CalleeKind::Custom,       ToResult, Writes,   NotFresh,  Unrelated,
     everyArgumentActivity,  customTangent,
     customForward,                                  customAdjoint},
  {CalleeKind::Defined,      Anywhere, Writes,   NotFresh,  Unrelated,
     definedActivity,        sameInForwardMode<definedCall>,
     definedCall,                                    definedAdjoint},
  {CalleeKind::Unknown,      Unknown,  Writes,   NotFresh,  Unrelated,
     nullptr,                sameInForwardMode<unknownCall>,
     unknownCall,                                    nullptr},
};
// clang-format on

constexpr bool rowsInKindOrder() {
  for (unsigned K = 0; K < std::size(Rows); ++K)
    if (unsigned(Rows[K].Kind) != K)
      return false;
  return std::size(Rows) == unsigned(CalleeKind::Unknown) + 1;
}
static_assert(rowsInKindOrder(), "one row per CalleeKind, in order");

} // namespace

const CallRow &rowOf(CalleeKind Kind) { return Rows[unsigned(Kind)]; }

} // namespace ad

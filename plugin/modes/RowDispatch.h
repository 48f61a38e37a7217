//===- RowDispatch.h - A call emitted as its callee's row says --*- C++ -*-===//
//
// Every builder emits a call the same way in each of its sweeps: classify
// the callee, take the row's entry for that sweep (CallRow::Tangent,
// Forward or Adjoint), and run it through the builder's emitter. One
// template, so that the builders only say which entry and which emitter.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_ROWDISPATCH_H
#define AD_MODES_ROWDISPATCH_H

#include "rules/CallRows.h"

namespace ad {

/// Runs \p Call's row entry \p Entry through emitter \p E (passing \p Extra,
/// the adjoint's result adjoint, after the callee). True when the row has
/// nothing to emit for this sweep; false after an error.
template <typename EntryT, typename EmitterT, typename... ExtraT>
bool emitByRow(llvm::CallBase &Call, EntryT CallRow::*Entry, EmitterT &E,
               ExtraT... Extra) {
  CalleeInfo Info = classifyCallee(Call);
  auto *Emit = rowOf(Info.Kind).*Entry;
  return !Emit || Emit(E, Call, Info, Extra...);
}

} // namespace ad

#endif

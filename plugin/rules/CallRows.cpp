//===- CallRows.cpp - The index of callee kinds' rows ---------------------===//
//
// The rows live with their topics (CallRows.h lists the files); this file
// indexes them by kind once, and refuses a table that misses a kind or names
// one twice: a kind without a row would otherwise read as "nothing to do".
//
//===----------------------------------------------------------------------===//
#include "rules/CallRows.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace ad {
namespace {

constexpr unsigned NumKinds = unsigned(CalleeKind::Unknown) + 1;

struct RowIndex {
  const CallRow *ByKind[NumKinds] = {};

  RowIndex() {
    for (ArrayRef<CallRow> (*Topic)() :
         {plainCallRows, mathCallRows, memoryCallRows, maskedMemoryRows,
          tapeCallRows, mirrorCallRows, customCallRows, parallelCallRows,
          messageCallRows})
      for (const CallRow &Row : Topic()) {
        const CallRow *&Slot = ByKind[unsigned(Row.Kind)];
        if (Slot)
          report_fatal_error("two rows for one callee kind");
        Slot = &Row;
      }
    for (const CallRow *Row : ByKind)
      if (!Row)
        report_fatal_error("a callee kind without a row");
  }
};

} // namespace

const CallRow &rowOf(CalleeKind Kind) {
  static const RowIndex Index;
  return *Index.ByKind[unsigned(Kind)];
}

} // namespace ad

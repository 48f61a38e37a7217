//===- AnalysisPrinters.h - opt -passes='print<ad-activity>' and friends
//----===//
//
// The decisions the plugin takes before it writes any derivative code, shown
// for every differentiation call in a module, without changing the module:
//   print<ad-activity>  which values carry derivatives (ActivityAnalysis):
//                       inactive code gets no derivative code and no tape;
//   print<ad-types>     what the memory behind each pointer holds (the
//                       floats and pointers of its element, and the facts
//                       the TypeAnalysis resolved them from) and which
//                       integers carry the bits of a float or a pointer.
// The analyses run on the called function as written, with the activities
// the call gives its parameters.
//
//===----------------------------------------------------------------------===//
#ifndef AD_DRIVER_ANALYSISPRINTERS_H
#define AD_DRIVER_ANALYSISPRINTERS_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class raw_ostream;
}

namespace ad {

class ActivityPrinterPass : public llvm::PassInfoMixin<ActivityPrinterPass> {
public:
  explicit ActivityPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

class TypePrinterPass : public llvm::PassInfoMixin<TypePrinterPass> {
public:
  explicit TypePrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

} // namespace ad

#endif

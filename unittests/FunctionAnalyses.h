//===- FunctionAnalyses.h - IR fixtures shared by the unit tests ---------===//
//
// Tests of analyses that take scalar evolution and loops parse a small
// module from text and build those analyses for one of its functions by
// hand, as the pass manager would.
//
//===----------------------------------------------------------------------===//
#ifndef AD_UNITTESTS_FUNCTIONANALYSES_H
#define AD_UNITTESTS_FUNCTIONANALYSES_H

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>

namespace ad::test {

/// Scalar evolution and what it needs, for function \p F.
struct FunctionAnalyses {
  explicit FunctionAnalyses(llvm::Function &F)
      : TLII(F.getParent()->getTargetTriple()), TLI(TLII), AC(F), DT(F), LI(DT),
        SE(F, TLI, AC, DT, LI) {}
  llvm::TargetLibraryInfoImpl TLII;
  llvm::TargetLibraryInfo TLI;
  llvm::AssumptionCache AC;
  llvm::DominatorTree DT;
  llvm::LoopInfo LI;
  llvm::ScalarEvolution SE;
};

/// The module \p IR spells; null (with the parser's message) if it does not
/// parse.
inline std::unique_ptr<llvm::Module> parseModule(llvm::LLVMContext &C,
                                                 const char *IR) {
  llvm::SMDiagnostic Err;
  std::unique_ptr<llvm::Module> M = llvm::parseAssemblyString(IR, Err, C);
  if (!M)
    Err.print("unittest", llvm::errs());
  return M;
}

/// \p S as scalar evolution prints it, for failure messages.
inline std::string text(const llvm::SCEV *S) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  S->print(OS);
  return Out;
}

} // namespace ad::test

#endif

//===- IndirectCallees.cpp - The functions an indirect call may reach -----===//
#include "analysis/IndirectCallees.h"
#include "core/EntryPointNames.h"
#include "rules/KnownFunctions.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ad {
namespace {

/// A global only the compiler or the plugin reads (llvm.used, the tables
/// of custom rules): a function kept alive by it is not called through it.
bool isBookkeeping(const GlobalVariable &GV) {
  StringRef Name = GV.getName();
  return Name.starts_with("llvm.") || Name.starts_with("__ad_rule_");
}

/// \p Call hands \p U to an entry point as the function to differentiate.
bool differentiatedBy(const CallBase &Call, const Use &U) {
  const Function *Callee = Call.getCalledFunction();
  return Callee && entryPointKind(*Callee) && Call.isArgOperand(&U) &&
         Call.getArgOperandNo(&U) == 0;
}

/// \p V (a function, an alias or ifunc of one, or a constant built from
/// it) reaches a place from which the program may call it through a
/// pointer.
bool mayBeCalledIndirectly(const Value &V, unsigned Depth = 0) {
  if (Depth > 8)
    return true;
  for (const Use &U : V.uses()) {
    const User *Usr = U.getUser();
    if (auto *Call = dyn_cast<CallBase>(Usr)) {
      if (Call->isCallee(&U) || differentiatedBy(*Call, U))
        continue;
      return true;
    }
    if (auto *GV = dyn_cast<GlobalVariable>(Usr)) {
      if (!isBookkeeping(*GV))
        return true;
      continue;
    }
    // An alias the linker cannot replace is the function under another
    // name (clang's C1 constructors): what reaches the program is the
    // alias's address. One it can replace is looked at on its own.
    if (auto *GA = dyn_cast<GlobalAlias>(Usr)) {
      if (!GA->isInterposable() && mayBeCalledIndirectly(*GA, Depth + 1))
        return true;
      continue;
    }
    // A vtable or a table of operations: the constant that holds it is
    // what the program reaches.
    if (isa<Constant>(Usr) && !isa<GlobalValue>(Usr)) {
      if (mayBeCalledIndirectly(*Usr, Depth + 1))
        return true;
      continue;
    }
    return true; // Stored, compared, passed along: it may come back.
  }
  return false;
}

/// Whether declaration \p F, called in place of \p Call, has a row in the
/// rule table (sin, exp, an inactive library function, a custom rule): the
/// table answers for a call, so a probe call is asked, then removed.
bool hasRow(Function &F, CallBase &Call) {
  SmallVector<Value *, 8> Args(Call.args());
  CallInst *Probe =
      CallInst::Create(F.getFunctionType(), &F, Args, "", Call.getIterator());
  CalleeKind Kind = classifyCallee(*Probe).Kind;
  Probe->eraseFromParent();
  return Kind != CalleeKind::Unknown;
}

/// Whether the plugin knows what \p F does when \p Call reaches it: a body
/// no other file replaces, or a declaration with a row.
bool derivativeKnown(Function &F, CallBase &Call) {
  if (F.isDeclaration())
    return hasRow(F, Call);
  return !F.isInterposable();
}

/// Collects into \p Out the functions \p V chooses between (through
/// selects and phis); false if it may be anything else.
bool collectChoices(Value *V, SmallVectorImpl<Function *> &Out,
                    SmallPtrSetImpl<Value *> &Seen) {
  if (!Seen.insert(V).second)
    return true;
  if (Function *F = namedFunction(V)) {
    if (!is_contained(Out, F))
      Out.push_back(F);
    return true;
  }
  if (auto *Sel = dyn_cast<SelectInst>(V))
    return collectChoices(Sel->getTrueValue(), Out, Seen) &&
           collectChoices(Sel->getFalseValue(), Out, Seen);
  if (auto *Phi = dyn_cast<PHINode>(V))
    return all_of(Phi->incoming_values(),
                  [&](Value *In) { return collectChoices(In, Out, Seen); });
  return false;
}

} // namespace

const IndirectCallees &IndirectCalleeCache::ofType(FunctionType *Ty,
                                                   CallBase &Call) {
  auto [It, Inserted] = ByType.try_emplace(Ty);
  IndirectCallees &Found = It->second;
  if (!Inserted)
    return Found;
  // Code the plugin cannot see may be the callee: what it does is not known
  // here, so the calls stay unknown and their errors stay at compile time.
  auto OutOfSight = [&](const GlobalValue &GV) {
    return GV.getValueType() == Ty && mayBeCalledIndirectly(GV);
  };
  if (any_of(M.ifuncs(), OutOfSight) ||
      any_of(M.aliases(), [&](const GlobalAlias &GA) {
        return GA.isInterposable() && OutOfSight(GA);
      }))
    return Found;
  for (Function &F : M) {
    // Derivatives and the plugin's own functions are never user callees.
    if (F.getFunctionType() != Ty || F.getName().contains(".ad.") ||
        F.isIntrinsic() || !mayBeCalledIndirectly(F))
      continue;
    if (!derivativeKnown(F, Call) || Found.Functions.size() == Limit) {
      Found.Functions.clear();
      return Found;
    }
    Found.Functions.push_back(&F);
  }
  return Found;
}

IndirectCallees IndirectCalleeCache::candidates(CallBase &Call) {
  assert(Call.getModule() == &M && "a call of another module");
  if (isa<Constant>(Call.getCalledOperand()) || Call.isInlineAsm() ||
      Call.getOperandBundle(LLVMContext::OB_ptrauth))
    return {};
  // A choice between functions named here: those, and no other.
  IndirectCallees Choice;
  SmallPtrSet<Value *, 8> Seen;
  if (collectChoices(Call.getCalledOperand(), Choice.Functions, Seen)) {
    Choice.Closed = true;
    if (Choice.Functions.size() > Limit ||
        any_of(Choice.Functions, [&](Function *F) {
          return F->getFunctionType() != Call.getFunctionType() ||
                 !derivativeKnown(*F, Call);
        }))
      return {};
    return Choice;
  }
  return ofType(Call.getFunctionType(), Call);
}

} // namespace ad

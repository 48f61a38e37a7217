//===- LoweringOrder.cpp - Entry-point calls, innermost first -------------===//
#include "driver/LoweringOrder.h"
#include "rules/CustomRules.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace ad {
namespace {

class CallGraphWalk {
public:
  CallGraphWalk(ArrayRef<CallBase *> Calls, ArrayRef<Function *> Targets,
                const CustomRules &Rules)
      : Calls(Calls), Targets(Targets), Rules(Rules),
        State(Calls.size(), Unvisited) {
    Result.Recursive.assign(Calls.size(), false);
    Result.Nested.assign(Calls.size(), false);
    for (auto [I, Call] : enumerate(Calls))
      CallsIn[Call->getFunction()].push_back(I);
  }

  LoweringOrder run() {
    for (unsigned I = 0; I < Calls.size(); ++I)
      visit(I);
    return std::move(Result);
  }

private:
  enum VisitState : uint8_t { Unvisited, OnStack, Done };

  /// The entry-point calls in the functions a derivative of \p F copies:
  /// F, its direct callees with bodies, and the targets of the entry-point
  /// calls among them, transitively.
  const SmallVector<unsigned, 4> &callsReachedFrom(Function *F) {
    auto [It, Inserted] = Reached.try_emplace(F);
    if (!Inserted)
      return It->second;
    SmallVector<unsigned, 4> Found;
    SmallPtrSet<Function *, 16> Seen;
    SmallVector<Function *, 16> Work{F};
    while (!Work.empty()) {
      Function *G = Work.pop_back_val();
      if (G->isDeclaration() || !Seen.insert(G).second)
        continue;
      for (unsigned J : CallsIn.lookup(G)) {
        Found.push_back(J);
        if (Targets[J])
          Work.push_back(Targets[J]);
      }
      for (Instruction &I : instructions(*G))
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (auto *Callee = dyn_cast<Function>(
                  CB->getCalledOperand()->stripPointerCastsAndAliases())) {
            Work.push_back(Callee);
            if (const CustomRule *R = Rules.lookup(Callee))
              for (Function *Rule : {R->Forward, R->Reverse})
                if (Rule)
                  Work.push_back(Rule);
          }
    }
    // Reached may have grown (and moved) while walking: look it up again.
    return Reached[F] = std::move(Found);
  }

  void visit(unsigned I) {
    if (State[I] == Done)
      return;
    State[I] = OnStack;
    Stack.push_back(I);
    if (Function *Target = Targets[I])
      for (unsigned J : SmallVector<unsigned, 4>(callsReachedFrom(Target))) {
        Result.Nested[J] = true;
        if (State[J] == OnStack) {
          // Every call on the stack from J up needs its own derivative first.
          for (unsigned K : reverse(Stack)) {
            Result.Recursive[K] = true;
            if (K == J)
              break;
          }
          continue;
        }
        visit(J);
      }
    Stack.pop_back();
    State[I] = Done;
    Result.Order.push_back(I);
  }

  ArrayRef<CallBase *> Calls;
  ArrayRef<Function *> Targets;
  const CustomRules &Rules;
  SmallVector<VisitState, 8> State;
  SmallVector<unsigned, 8> Stack;
  DenseMap<const Function *, SmallVector<unsigned, 2>> CallsIn;
  DenseMap<Function *, SmallVector<unsigned, 4>> Reached;
  LoweringOrder Result;
};

} // namespace

LoweringOrder innermostFirst(ArrayRef<CallBase *> Calls,
                             ArrayRef<Function *> Targets,
                             const CustomRules &Rules) {
  return CallGraphWalk(Calls, Targets, Rules).run();
}

} // namespace ad

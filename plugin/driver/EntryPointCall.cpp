//===- EntryPointCall.cpp - Reading a call to __ad_autodiff / __ad_fwddiff --===//
#include "driver/EntryPointCall.h"
#include "core/IRHelpers.h"
#include "rules/KnownFunctions.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace ad {

std::optional<StringRef> markerName(const Value *V) {
  auto *LI = dyn_cast<LoadInst>(V);
  if (!LI)
    return std::nullopt;
  auto *GV =
      dyn_cast<GlobalVariable>(LI->getPointerOperand()->stripPointerCasts());
  if (!GV)
    return std::nullopt;
  StringRef Name = GV->getName();
  if (Name == "__ad_dup" || Name == "__ad_dupnoneed" || Name == "__ad_const" ||
      Name == "__ad_out")
    return Name;
  return std::nullopt;
}

namespace {

Function *resolveFunction(Value *V, const DataLayout &DL, unsigned Depth = 0);

/// The one function that every store to the \p Width bytes at \p Offset in
/// \p Slot stores there (a local variable, or a field of one: flang keeps
/// c_funloc's result in a c_funptr record at -O0); nullptr if a store there
/// may hold anything else or the address escapes.
Function *onlyFunctionStored(AllocaInst *Slot, int64_t Offset, int64_t Width,
                             const DataLayout &DL, unsigned Depth) {
  Function *Only = nullptr;
  SmallVector<std::pair<Value *, int64_t>, 8> Work{{Slot, 0}};
  while (!Work.empty()) {
    auto [Address, At] = Work.pop_back_val();
    for (User *U : Address->users()) {
      if (isa<LoadInst>(U) || isa<LifetimeIntrinsic>(U) ||
          isa<DbgInfoIntrinsic>(U))
        continue;
      if (auto *GEP = dyn_cast<GetElementPtrInst>(U)) {
        APInt Step(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
        if (!GEP->accumulateConstantOffset(DL, Step))
          return nullptr;
        Work.push_back({GEP, At + Step.getSExtValue()});
        continue;
      }
      auto *SI = dyn_cast<StoreInst>(U);
      if (!SI || SI->getPointerOperand() != Address)
        return nullptr; // The address escapes: anything may be stored.
      int64_t Size = DL.getTypeStoreSize(SI->getValueOperand()->getType());
      if (At + Size <= Offset || At >= Offset + Width)
        continue; // Another field.
      if (At != Offset)
        return nullptr;
      Function *F = resolveFunction(SI->getValueOperand(), DL, Depth + 1);
      if (!F || (Only && Only != F))
        return nullptr;
      Only = F;
    }
  }
  return Only;
}

/// The function a value denotes when that is known at compile time: the
/// function itself (also as an integer, as Fortran's c_funptr holds it), a
/// local variable (at -O0) that only ever holds one function, or an entry
/// of a constant table of functions.
Function *resolveFunction(Value *V, const DataLayout &DL, unsigned Depth) {
  V = V->stripPointerCasts();
  if (Function *F = namedFunction(V))
    return F;
  if (Depth > 4)
    return nullptr;
  if (auto *Cast = dyn_cast<Operator>(V);
      Cast && (Cast->getOpcode() == Instruction::IntToPtr ||
               Cast->getOpcode() == Instruction::PtrToInt))
    return resolveFunction(Cast->getOperand(0), DL, Depth + 1);
  auto *LI = dyn_cast<LoadInst>(V);
  if (!LI)
    return nullptr;
  Value *Ptr = LI->getPointerOperand();
  if (auto *C = dyn_cast<Constant>(Ptr)) {
    Constant *Loaded = ConstantFoldLoadFromConstPtr(C, LI->getType(), DL);
    return Loaded ? resolveFunction(Loaded, DL, Depth + 1) : nullptr;
  }
  APInt Offset(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  auto *AI = dyn_cast<AllocaInst>(
      Ptr->stripAndAccumulateConstantOffsets(DL, Offset, true));
  int64_t Width = DL.getTypeStoreSize(LI->getType());
  return AI ? onlyFunctionStored(AI, Offset.getSExtValue(), Width, DL, Depth)
            : nullptr;
}

/// Undoes C's default argument promotions (float -> double, small integers
/// -> int) and accepts exact matches.
Value *convertArgument(IRBuilder<> &B, Value *V, Type *To) {
  if (V->getType() == To)
    return V;
  if (V->getType()->isPointerTy() && To->isPointerTy())
    return B.CreatePointerCast(V, To);
  return convertScalar(B, V, To);
}

class Parser {
public:
  Parser(CallBase &Call, EntryPointKind Kind, DiagnosticReporter &Diag)
      : Call(Call), Kind(Kind), Diag(Diag), B(&Call) {}

  std::optional<EntryPointCall> parse();

private:
  bool fail(const Twine &Reason, const Twine &Hint) {
    Diag.invalidCall(&Call, Reason, Hint);
    return false;
  }
  bool parseParameter(Argument &Param);
  void addReturnBuffer(Argument &Param);
  /// A zeroed (or, with \p Ones, seeded) temporary in the caller's frame.
  Value *temporary(Type *Ty, bool Ones);
  Value *next() {
    return Pos < Call.arg_size() ? Call.getArgOperand(Pos++) : nullptr;
  }

  CallBase &Call;
  EntryPointKind Kind;
  DiagnosticReporter &Diag;
  IRBuilder<> B;
  EntryPointCall Result;
  unsigned Pos = 0;
};

std::optional<EntryPointCall> Parser::parse() {
  Result.Call = &Call;
  Result.Kind = Kind;
  if (Call.arg_size() > 0 && Call.paramHasAttr(0, Attribute::StructRet))
    Result.SRet = Call.getArgOperand(Pos++);
  Value *Target = next();
  Result.Fn = Target ? resolveFunction(Target, Call.getDataLayout()) : nullptr;
  if (const GlobalAlias *GA =
          Target && !Result.Fn ? interposableAlias(Target) : nullptr) {
    fail("'" + demangle(GA->getName()) +
             "' is an alias that may be replaced at link time (weak), so "
             "the function it names need not be the one called",
         "differentiate the function the alias names, or make the alias "
         "strong");
    return std::nullopt;
  }
  if (!Result.Fn) {
    fail("the first argument is not a function",
         "pass the function to differentiate, e.g. __ad_autodiff((void *)f, "
         "...)");
    return std::nullopt;
  }
  if (Result.Fn->isDeclaration()) {
    fail("'" + Result.Fn->getName() + "' has no body in this module",
         "differentiate a function defined in this translation unit (or "
         "one that calls the external function); with link-time "
         "optimization, -flto=full differentiates at the link with every "
         "file at hand, ThinLTO one file at a time");
    return std::nullopt;
  }
  if (Result.Fn->isVarArg()) {
    fail("'" + Result.Fn->getName() + "' is variadic",
         "differentiate a function with a fixed parameter list");
    return std::nullopt;
  }
  for (Argument &Param : Result.Fn->args()) {
    if (Param.hasStructRetAttr()) {
      addReturnBuffer(Param);
      continue;
    }
    if (!parseParameter(Param))
      return std::nullopt;
  }
  if (Pos != Call.arg_size()) {
    unsigned N = Result.Fn->arg_size();
    fail("too many arguments for '" + Result.Fn->getName() + "' (it has " +
             Twine(N) + (N == 1 ? " parameter)" : " parameters)"),
         "pass one value per parameter, plus a shadow after each __ad_dup "
         "one");
    return std::nullopt;
  }
  return Result;
}

Value *Parser::temporary(Type *Ty, bool Ones) {
  Function *Caller = Call.getFunction();
  IRBuilder<> EntryB(&*Caller->getEntryBlock().getFirstInsertionPt());
  AllocaInst *A = EntryB.CreateAlloca(Ty, nullptr, "ad.tmp");
  B.CreateStore(Ones ? onesOf(Ty) : Constant::getNullValue(Ty), A);
  return A;
}

/// f returns a struct through a hidden pointer (sret): the caller of the
/// entry point passes nothing for it. The plugin gives f a buffer, and one
/// for its shadow: the seed of the returned struct in reverse mode (ones,
/// as for a floating-point return), its tangent in forward mode.
void Parser::addReturnBuffer(Argument &Param) {
  Type *Ty = Param.getParamStructRetType();
  bool Reverse = Kind == EntryPointKind::Reverse;
  Result.Activities.push_back(Activity::Shadowed);
  Result.Primals.push_back(temporary(Ty, /*Ones=*/false));
  Value *Shadow = temporary(Ty, /*Ones=*/Reverse);
  Result.Derivatives.push_back(Shadow);
  if (!Reverse)
    Result.ShadowResults.push_back({Param.getArgNo(), Ty, Shadow});
}

bool Parser::parseParameter(Argument &Param) {
  Type *Ty = Param.getType();
  bool Reverse = Kind == EntryPointKind::Reverse;
  std::string What = ("parameter " + Twine(Param.getArgNo() + 1) + " of '" +
                      Result.Fn->getName() + "'")
                         .str();
  Value *V = next();
  if (!V)
    return fail("too few arguments: nothing for " + What,
                "pass one value per parameter, plus a shadow after each "
                "__ad_dup one");

  Activity Act;
  std::optional<StringRef> Marker = markerName(V);
  if (Marker) {
    if (*Marker == "__ad_const") {
      Act = Activity::Const;
    } else if (*Marker == "__ad_out") {
      if (!Reverse)
        return fail("__ad_out is not allowed in forward mode (" + What + ")",
                    "use __ad_dup with a tangent, or __ad_const");
      if (!isDifferentiableType(Ty) && !Param.getParamByValType())
        return fail("__ad_out needs a floating-point " + What,
                    "use __ad_dup for pointers and __ad_const for integers");
      Act = Activity::Active;
    } else { // __ad_dup, __ad_dupnoneed
      if (Ty->isPointerTy())
        Act = Activity::Shadowed;
      else if (!Reverse && isDifferentiableType(Ty))
        Act = Activity::Active;
      else
        return fail(*Marker + " needs a pointer " + What +
                        (Reverse ? " in reverse mode" : ""),
                    Reverse ? "use __ad_out for a floating-point value passed "
                              "by value"
                            : "use __ad_const for integers");
    }
    V = next();
    if (!V)
      return fail("too few arguments: nothing after the marker for " + What,
                  "pass the value after its marker");
  } else if (Ty->isPointerTy() && !(Reverse && Param.getParamByValType())) {
    Act = Activity::Shadowed;
  } else if (isDifferentiableType(Ty) || Param.getParamByValType()) {
    Act = Activity::Active;
  } else {
    Act = Activity::Const;
  }
  if (markerName(V))
    return fail("two markers in a row for " + What,
                "write one marker, then the value");

  // A struct passed by value reaches IR as a pointer to a copy (byval). In
  // reverse mode it is an __ad_out value: the plugin gives it a zeroed
  // shadow and returns the adjoint collected there.
  if (Type *ByVal = Param.getParamByValType(); ByVal && Reverse) {
    if (Marker && (*Marker == "__ad_dup" || *Marker == "__ad_dupnoneed"))
      return fail(*Marker + " on " + What + ", a struct passed by value",
                  "use __ad_out (the default) to get its adjoint back");
    Result.Activities.push_back(Act == Activity::Const ? Activity::Const
                                                       : Activity::Shadowed);
    Result.Primals.push_back(V);
    if (Act != Activity::Const) {
      Value *Shadow = temporary(ByVal, /*Ones=*/false);
      Result.Derivatives.push_back(Shadow);
      Result.ShadowResults.push_back({Param.getArgNo(), ByVal, Shadow});
    }
    return true;
  }

  Value *Primal = convertArgument(B, V, Ty);
  if (!Primal)
    return fail("the value passed for " + What + " has the wrong type",
                "pass a value of the parameter's type");
  if (Marker && *Marker == "__ad_dupnoneed" && Act == Activity::Shadowed &&
      Param.getArgNo() < 64)
    Result.NoNeedArgs |= uint64_t(1) << Param.getArgNo();
  Result.Activities.push_back(Act);
  Result.Primals.push_back(Primal);

  bool TakesDerivative =
      Act == Activity::Shadowed || (!Reverse && Act == Activity::Active);
  if (!TakesDerivative)
    return true;
  Value *D = next();
  if (!D)
    return fail("too few arguments: the " +
                    Twine(Ty->isPointerTy() ? "shadow" : "tangent") + " of " +
                    What + " is missing",
                "pass the shadow (or tangent) right after the value");
  if (markerName(D))
    return fail("a marker stands where the shadow of " + What + " belongs",
                "pass the shadow (or tangent) right after the value");
  Value *Converted = convertArgument(B, D, Ty);
  if (!Converted)
    return fail("the shadow of " + What + " has the wrong type",
                "pass a shadow of the parameter's type");
  Result.Derivatives.push_back(Converted);
  return true;
}

} // namespace

std::optional<EntryPointCall> parseEntryPointCall(CallBase &Call,
                                                  EntryPointKind Kind,
                                                  DiagnosticReporter &Diag) {
  return Parser(Call, Kind, Diag).parse();
}

} // namespace ad

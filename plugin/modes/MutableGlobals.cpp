//===- MutableGlobals.cpp - Shadows of mutable globals --------------------===//
#include "modes/MutableGlobals.h"
#include "analysis/CallSignature.h"
#include "analysis/MemoryEffects.h"
#include "analysis/ThreadSharing.h"
#include "modes/ConstantShadows.h"
#include "rules/CallRows.h"
#include "rules/MessagePassing.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ad {

/// One function of a differentiated call tree, with the activities it is
/// called with (as the derivative cache will see it).
struct MutableGlobals::Node {
  Function *Fn;
  Function *Canonical;
  SmallVector<Activity, 8> Args;
  std::unique_ptr<ActivityAnalysis> AA;
  /// The calls that will call a derivative, and of what.
  SmallVector<std::pair<const CallBase *, Node *>, 4> Callees;
  /// Globals this function (with these activities) leaves a differentiated
  /// value in that nothing after the write reads back: the write.
  DenseMap<GlobalVariable *, const Instruction *> Leaves;
};

namespace {

enum AccessKind : unsigned {
  Reads = 1,  ///< may read the global
  Writes = 2, ///< may write (part of) it
  Kills = 4,  ///< writes all of it
};

struct Access {
  const Instruction *I;
  GlobalVariable *G;
  unsigned Kinds;
  /// Where, when the address is the global plus a constant.
  std::optional<ByteRange> Range;
};

} // namespace

/// What one function does with the shadowed globals, whatever its
/// activities: its own accesses, what it and its callees may load and may
/// store, and whether it may read a global's value from before it was
/// called (with the read). What it must write is asked by byte range
/// (mustWrite).
struct MutableGlobals::Summary {
  Function *Canonical = nullptr;
  SmallVector<Access, 8> Direct;
  SmallVector<std::pair<const CallBase *, const Function *>, 4> Calls;
  DenseSet<GlobalVariable *> MayLoad, MayStore;
  /// The read to blame, and the bytes it reads if known.
  DenseMap<GlobalVariable *,
           std::pair<const Instruction *, std::optional<ByteRange>>>
      ReadsIncoming;
};

namespace {

/// The instructions that may run after one of \p Sources (strictly after),
/// or after the function starts when FromEntry, with no barrier in between.
class RunsAfter {
public:
  RunsAfter(const Function &F, ArrayRef<const Instruction *> Sources,
            bool FromEntry, function_ref<bool(const Instruction &)> IsBarrier)
      : IsBarrier(IsBarrier), Sources(Sources.begin(), Sources.end()) {
    SmallVector<const BasicBlock *, 16> Work;
    auto Enter = [&](const BasicBlock *BB) {
      if (EnteredAtTop.insert(BB).second)
        Work.push_back(BB);
    };
    auto LeaveFrom = [&](const BasicBlock *BB) {
      for (const BasicBlock *S : successors(BB))
        Enter(S);
    };
    if (FromEntry)
      Enter(&F.getEntryBlock());
    for (const Instruction *S : Sources)
      if (liveAtEnd(*S->getParent(), /*Top=*/false))
        LeaveFrom(S->getParent());
    while (!Work.empty()) {
      const BasicBlock *BB = Work.pop_back_val();
      if (liveAtEnd(*BB, /*Top=*/true))
        LeaveFrom(BB);
    }
  }

  bool mayRun(const Instruction &I) const {
    bool Live = EnteredAtTop.count(I.getParent());
    for (const Instruction &X : *I.getParent()) {
      if (&X == &I)
        return Live;
      step(X, Live);
    }
    return false;
  }

private:
  void step(const Instruction &X, bool &Live) const {
    if (IsBarrier(X))
      Live = false;
    if (Sources.count(&X))
      Live = true;
  }
  bool liveAtEnd(const BasicBlock &BB, bool Top) const {
    bool Live = Top;
    for (const Instruction &X : BB)
      step(X, Live);
    return Live;
  }

  function_ref<bool(const Instruction &)> IsBarrier;
  SmallPtrSet<const Instruction *, 4> Sources;
  DenseSet<const BasicBlock *> EnteredAtTop;
};

bool noBarrier(const Instruction &) { return false; }

/// The globals among \p Of that \p Ptr may point into.
SmallVector<GlobalVariable *, 2>
globalsBehind(const Value *Ptr, const DenseSet<GlobalVariable *> &Of) {
  SmallVector<GlobalVariable *, 2> Found;
  if (Of.empty() || !Ptr->getType()->isPtrOrPtrVectorTy())
    return Found;
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  for (const Value *O : Objects)
    if (auto *G = dyn_cast<GlobalVariable>(O);
        G && Of.count(const_cast<GlobalVariable *>(G)))
      Found.push_back(const_cast<GlobalVariable *>(G));
  return Found;
}

/// The bytes of \p G an access of \p Bytes at \p Ptr touches, when \p Ptr
/// is \p G plus a constant.
std::optional<ByteRange> rangeIn(const Value *Ptr,
                                 std::optional<uint64_t> Bytes,
                                 const GlobalVariable &G) {
  const DataLayout &DL = G.getDataLayout();
  APInt Offset(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  if (!Bytes ||
      Ptr->stripAndAccumulateConstantOffsets(DL, Offset,
                                             /*AllowNonInbounds=*/true) != &G ||
      Offset.isNegative())
    return std::nullopt;
  return ByteRange{Offset.getZExtValue(), *Bytes};
}

uint64_t sizeOf(const GlobalVariable &G) {
  return G.getDataLayout()
      .getTypeStoreSize(G.getValueType())
      .getKnownMinValue();
}

/// The MPI operation \p I is (rules/MessagePassing.h), or nullptr.
const MessageOperation *messageOperationOf(const Instruction &I) {
  auto *Call = dyn_cast<CallBase>(&I);
  return Call ? classifyCallee(*Call).Message : nullptr;
}

/// The bytes buffer \p K of MPI operation \p Call moves, where its count
/// is a constant and its datatype a predefined floating-point one.
std::optional<uint64_t> messageBytes(const CallBase &Call,
                                     const MessageOperation &Op, unsigned K) {
  auto *N = dyn_cast<ConstantInt>(Call.getArgOperand(Op.Counts[K]));
  std::optional<unsigned> Element =
      floatingElementBytes(Call.getArgOperand(Op.Datatypes[K]));
  if (!N || !Element)
    return std::nullopt;
  return N->getZExtValue() * *Element;
}

/// The accesses of the globals \p Of in \p F: loads, stores, memory
/// intrinsics, and their addresses passed to calls (which may do either).
void directAccesses(const Function &F, const DenseSet<GlobalVariable *> &Of,
                    SmallVectorImpl<Access> &Out) {
  const DataLayout &DL = F.getDataLayout();
  auto Add = [&](const Instruction &I, const Value *Ptr, unsigned Kinds,
                 std::optional<uint64_t> Bytes) {
    for (GlobalVariable *G : globalsBehind(Ptr, Of)) {
      std::optional<ByteRange> R = rangeIn(Ptr, Bytes, *G);
      unsigned K = Kinds;
      if ((K & Writes) && R && R->covers({0, sizeOf(*G)}))
        K |= Kills;
      Out.push_back({&I, G, K, R});
    }
  };
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (auto *LI = dyn_cast<LoadInst>(&I)) {
        Add(I, LI->getPointerOperand(), Reads,
            DL.getTypeStoreSize(LI->getType()).getKnownMinValue());
      } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
        Add(I, SI->getPointerOperand(), Writes,
            DL.getTypeStoreSize(SI->getValueOperand()->getType())
                .getKnownMinValue());
      } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
        std::optional<uint64_t> Len;
        if (auto *C = dyn_cast<ConstantInt>(MI->getLength()))
          Len = C->getZExtValue();
        Add(I, MI->getDest(), Writes, Len);
        if (auto *MT = dyn_cast<MemTransferInst>(MI))
          Add(I, MT->getSource(), Reads, Len);
      } else if (const MessageOperation *Op = messageOperationOf(I)) {
        // An MPI operation reads what it sends and writes what it receives.
        auto &Call = cast<CallBase>(I);
        for (unsigned K = 0; K < Op->bufferCount(); ++K)
          Add(I, Call.getArgOperand(Op->Buffers[K]),
              Op->Received[K] ? Writes : Reads, messageBytes(Call, *Op, K));
      } else if (auto *Call = dyn_cast<CallBase>(&I)) {
        DerivativeFlow Flow = rowOf(*Call).Flow;
        if (Flow == DerivativeFlow::Marker || Flow == DerivativeFlow::Inactive)
          continue;
        for (const Use &U : Call->args())
          Add(I, U, Reads | Writes, std::nullopt);
      }
    }
}

/// Whether \p V, stored by \p Store into a global, also reaches something
/// else that may need its derivative (the optimizer forwards a store to the
/// loads after it: the stored value is then used directly).
bool usedBesides(const Value *V, const Instruction &Store,
                 const DenseSet<GlobalVariable *> &Globals) {
  for (const User *U : V->users()) {
    if (U == &Store || isa<CmpInst>(U))
      continue;
    if (auto *SI = dyn_cast<StoreInst>(U);
        SI && SI->getValueOperand() == V &&
        !globalsBehind(SI->getPointerOperand(), Globals).empty())
      continue;
    if (auto *Call = dyn_cast<CallBase>(U);
        Call && rowOf(*Call).Flow == DerivativeFlow::Inactive)
      continue;
    return true;
  }
  return false;
}

std::string nodeKey(const Function *F, ArrayRef<Activity> Args) {
  std::string K = std::to_string(reinterpret_cast<uintptr_t>(F)) + "|";
  for (Activity A : Args)
    K += "csa"[unsigned(A)];
  return K;
}

} // namespace

MutableGlobals::MutableGlobals(ADContext &Ctx) : Ctx(Ctx) {}
MutableGlobals::~MutableGlobals() = default;

void MutableGlobals::collectCandidates() {
  for (GlobalVariable &G : Ctx.M.globals()) {
    if (G.isConstant() || !G.hasName() || G.getName().starts_with("llvm.") ||
        G.getName().starts_with("__ad_") || G.getName().contains(".ad."))
      continue;
    if (!mayHoldDerivatives(G.getValueType()) || isReadOnlyGlobal(&G))
      continue;
    Candidates.insert(&G);
  }
}

/// Whether any code stores something other than a constant into a
/// candidate (or copies memory into one): if not, no store can carry a
/// derivative, and the fixed point has nothing to find.
bool MutableGlobals::anyCandidateWritten() const {
  for (GlobalVariable *G : Candidates) {
    SmallVector<const Value *, 8> Work{G};
    SmallPtrSet<const Value *, 16> Seen;
    while (!Work.empty()) {
      const Value *V = Work.pop_back_val();
      if (!Seen.insert(V).second)
        continue;
      for (const Use &U : V->uses()) {
        const User *Usr = U.getUser();
        if (auto *SI = dyn_cast<StoreInst>(Usr)) {
          if (!isa<Constant>(SI->getValueOperand()) ||
              SI->getValueOperand() == V)
            return true;
        } else if (isa<LoadInst>(Usr) || isa<CmpInst>(Usr)) {
          continue;
        } else if (isa<Instruction>(Usr) && !isa<GetElementPtrInst>(Usr) &&
                   !isa<CastInst>(Usr) && !isa<PHINode>(Usr) &&
                   !isa<SelectInst>(Usr)) {
          return true; // a call or memory intrinsic: may write
        } else {
          Work.push_back(Usr); // constant expressions, address arithmetic
        }
      }
    }
  }
  return false;
}

MutableGlobals::Node &MutableGlobals::node(Function *F,
                                           ArrayRef<Activity> Args) {
  Node *&Slot = NodeByKey[nodeKey(F, Args)];
  if (Slot)
    return *Slot;
  Nodes.push_back(std::make_unique<Node>());
  Node &N = *Nodes.back();
  Slot = &N;
  N.Fn = F;
  N.Canonical = Ctx.Cache->canonicalPrimal(F);
  N.Args.assign(Args.begin(), Args.end());
  N.AA = std::make_unique<ActivityAnalysis>(*N.Canonical, N.Args, Ctx.Types,
                                            &Shadowed, Ctx.MessagePassers);
  return N;
}

/// Every function each root's derivative will differentiate, with its
/// activities, as the builders will find them (signatureForCall).
void MutableGlobals::buildTree(ArrayRef<DifferentiatedRoot> Roots) {
  Nodes.clear();
  NodeByKey.clear();
  size_t Done = 0;
  for (const DifferentiatedRoot &R : Roots)
    node(R.Fn, R.Args);
  while (Done < Nodes.size()) {
    Node *N = Nodes[Done++].get();
    for (BasicBlock &BB : *N->Canonical)
      for (Instruction &I : BB) {
        auto *Call = dyn_cast<CallBase>(&I);
        if (!Call || !differentiatesCallee(rowOf(*Call)))
          continue;
        if (std::optional<DerivativeSignature> Sig =
                signatureForCall(*Call, *N->AA, DerivativeKind::Tangent))
          N->Callees.push_back({Call, &node(Sig->Primal, Sig->Args)});
      }
  }
}

void MutableGlobals::addShadow(GlobalVariable *G) {
  auto *S = new GlobalVariable(Ctx.M, G->getValueType(), /*isConstant=*/false,
                               GlobalValue::InternalLinkage,
                               Constant::getNullValue(G->getValueType()),
                               G->getName() + MutableShadowSuffix, nullptr,
                               G->getThreadLocalMode(), G->getAddressSpace());
  S->setAlignment(G->getAlign());
  Shadowed.Shadow[G] = S;
}

/// The functions that mention a shadowed global, and their callers.
void MutableGlobals::findAccessors() {
  Shadowed.Accessors.clear();
  Mentions.clear();
  // In the module's order, not the map's: Mentions decides the order of the
  // shadow resets after a call, and the output must not depend on addresses.
  for (GlobalVariable &GV : Ctx.M.globals()) {
    if (!Shadowed.Shadow.count(&GV))
      continue;
    GlobalVariable *G = &GV;
    SmallVector<const User *, 8> Users(G->users());
    while (!Users.empty()) {
      const User *U = Users.pop_back_val();
      if (auto *I = dyn_cast<Instruction>(U)) {
        const Function *F = I->getFunction();
        if (!is_contained(Mentions[F], G))
          Mentions[F].push_back(G);
        Shadowed.Accessors.insert(F);
      } else if (isa<ConstantExpr>(U)) {
        Users.append(U->user_begin(), U->user_end());
      }
    }
  }
  addTransitiveCallers(Ctx.M, Shadowed.Accessors);
}

void MutableGlobals::analyze(ArrayRef<DifferentiatedRoot> Roots) {
  collectCandidates();
  if (Candidates.empty() || !anyCandidateWritten())
    return;
  // A global joins when some differentiated store into it is active; its
  // loads then carry derivatives, which may make more stores active.
  for (;;) {
    buildTree(Roots);
    SetVector<GlobalVariable *> New;
    DenseSet<GlobalVariable *> Open;
    for (GlobalVariable *G : Candidates)
      if (!Shadowed.Shadow.count(G))
        Open.insert(G);
    for (const auto &N : Nodes) {
      const ActivityAnalysis &AA = *N->AA;
      auto Active = [&](const Value *V) {
        return AA.isVaried(V) || AA.hasShadow(V);
      };
      for (BasicBlock &BB : *N->Canonical)
        for (Instruction &I : BB) {
          if (auto *SI = dyn_cast<StoreInst>(&I)) {
            if (Active(SI->getValueOperand()))
              for (GlobalVariable *G :
                   globalsBehind(SI->getPointerOperand(), Open))
                New.insert(G);
          } else if (auto *MT = dyn_cast<MemTransferInst>(&I)) {
            if (AA.hasShadow(MT->getSource()))
              for (GlobalVariable *G : globalsBehind(MT->getDest(), Open))
                New.insert(G);
          } else if (const MessageOperation *Op = messageOperationOf(I)) {
            // What another rank sent carries its derivatives.
            auto &Call = cast<CallBase>(I);
            for (unsigned K = 0; K < Op->bufferCount(); ++K) {
              Value *Type = Call.getArgOperand(Op->Datatypes[K]);
              if (!Op->Received[K] ||
                  !mayHoldFloats(classifyMessageDatatype(Type)))
                continue;
              for (GlobalVariable *G :
                   globalsBehind(Call.getArgOperand(Op->Buffers[K]), Open))
                New.insert(G);
            }
          } else if (auto *Call = dyn_cast<CallBase>(&I);
                     Call && differentiatesCallee(rowOf(*Call)) &&
                     any_of(Call->args(), Active)) {
            // Its address handed to a function that may store through it.
            for (const Use &U : Call->args())
              for (GlobalVariable *G : globalsBehind(U, Open))
                New.insert(G);
          }
        }
    }
    if (New.empty())
      break;
    for (GlobalVariable *G : New)
      addShadow(G);
    findAccessors();
  }
  if (Shadowed.Shadow.empty())
    return;
  summarize();
  check(Roots);
}

const MutableGlobals::Summary *
MutableGlobals::summaryOf(const Function *F) const {
  auto It = Summaries.find(F);
  return It == Summaries.end() ? nullptr : It->second.get();
}

/// Whether \p I, in \p S's function, writes all the bytes \p R of \p G.
bool MutableGlobals::writesAll(const Summary &S, const Instruction &I,
                               GlobalVariable *G, ByteRange R) {
  for (const Access &A : S.Direct)
    if (A.I == &I && A.G == G && (A.Kinds & Writes) && A.Range &&
        A.Range->covers(R))
      return true;
  if (auto *Call = dyn_cast<CallBase>(&I))
    if (const Summary *C = summaryOf(calledFunction(*Call)))
      return mustWrite(*C, G, R);
  return false;
}

/// Whether every path through \p S's function writes the bytes \p R of
/// \p G (a recursive call being computed counts as not writing them).
bool MutableGlobals::mustWrite(const Summary &S, GlobalVariable *G,
                               ByteRange R) {
  auto Key = std::make_tuple(S.Canonical, G, R.Offset, R.Size);
  auto [It, New] = MustWrite.try_emplace(Key, false);
  if (!New)
    return It->second;
  // Named: RunsAfter keeps a function_ref to it, used after construction.
  auto WritesAll = [&](const Instruction &I) { return writesAll(S, I, G, R); };
  RunsAfter Start(*S.Canonical, {}, /*FromEntry=*/true, WritesAll);
  bool Must = none_of(*S.Canonical, [&](const BasicBlock &BB) {
    return isa<ReturnInst>(BB.getTerminator()) &&
           Start.mayRun(*BB.getTerminator());
  });
  MustWrite[Key] = Must;
  return Must;
}

bool MutableGlobals::summarizeIncoming(Summary &S, GlobalVariable *G) {
  if (S.ReadsIncoming.count(G))
    return false;
  // The reads of G here (a call's is the read its callee is blamed for)
  // and the writes.
  struct Read {
    const Instruction *Site, *Blame;
    std::optional<ByteRange> Range;
  };
  SmallVector<Read, 4> ReadSites;
  SmallVector<const Instruction *, 4> WriteSites;
  for (const Access &A : S.Direct) {
    if (A.G != G)
      continue;
    if (A.Kinds & Reads)
      ReadSites.push_back({A.I, A.I, A.Range});
    if (A.Kinds & Writes)
      WriteSites.push_back(A.I);
  }
  for (auto [Call, Callee] : S.Calls)
    if (const Summary *C = summaryOf(Callee)) {
      auto It = C->ReadsIncoming.find(G);
      if (It != C->ReadsIncoming.end())
        ReadSites.push_back({Call, It->second.first, It->second.second});
      if (C->MayStore.count(G))
        WriteSites.push_back(Call);
    }
  if (ReadSites.empty())
    return false;
  RunsAfter AfterWrites(*S.Canonical, WriteSites, /*FromEntry=*/false,
                        noBarrier);
  RunsAfter Reachable(*S.Canonical, {}, /*FromEntry=*/true, noBarrier);
  for (const Read &R : ReadSites) {
    auto Covers = [&](const Instruction &I) {
      return writesAll(S, I, G, *R.Range);
    };
    bool Incoming;
    if (R.Range &&
        any_of(WriteSites, [&](const Instruction *W) { return Covers(*W); })) {
      // Bytes that a write here covers: some path from the start reaches
      // the read without such a write.
      RunsAfter Start(*S.Canonical, {}, /*FromEntry=*/true, Covers);
      Incoming = Start.mayRun(*R.Site);
    } else {
      // Bytes read or written through an index we do not follow (an array
      // in a loop): only when no write of G at all can come first.
      Incoming = Reachable.mayRun(*R.Site) && !AfterWrites.mayRun(*R.Site);
    }
    if (Incoming) {
      S.ReadsIncoming[G] = {R.Blame, R.Range};
      return true;
    }
  }
  return false;
}

void MutableGlobals::summarize() {
  DenseSet<GlobalVariable *> All;
  for (auto &[G, S] : Shadowed.Shadow)
    All.insert(const_cast<GlobalVariable *>(G));
  for (const auto &N : Nodes) {
    std::unique_ptr<Summary> &Sum = Summaries[N->Fn];
    if (Sum)
      continue;
    Sum = std::make_unique<Summary>();
    Sum->Canonical = N->Canonical;
    directAccesses(*N->Canonical, All, Sum->Direct);
    for (BasicBlock &BB : *N->Canonical)
      for (Instruction &I : BB)
        if (auto *Call = dyn_cast<CallBase>(&I))
          if (const Function *Callee = calledFunction(*Call))
            Sum->Calls.push_back({Call, Callee});
  }

  // Least fixed points, a callee's answer included: first what may be
  // loaded and stored, then (which a write can only make less likely, so
  // it needs the final writes) what may be read from before the call.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto &[F, SumPtr] : Summaries) {
      Summary &S = *SumPtr;
      for (const Access &A : S.Direct) {
        if (A.Kinds & Reads)
          Changed |= S.MayLoad.insert(A.G).second;
        if (A.Kinds & Writes)
          Changed |= S.MayStore.insert(A.G).second;
      }
      for (auto [Call, Callee] : S.Calls)
        if (const Summary *C = summaryOf(Callee)) {
          for (GlobalVariable *G : C->MayLoad)
            Changed |= S.MayLoad.insert(G).second;
          for (GlobalVariable *G : C->MayStore)
            Changed |= S.MayStore.insert(G).second;
        }
    }
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto &[F, SumPtr] : Summaries)
      for (GlobalVariable *G : All)
        Changed |= summarizeIncoming(*SumPtr, G);
  }

  findUnreadWrites(All);
}

/// Which nodes leave a differentiated value in a global that nothing after
/// the write reads back (Node::Leaves), callees first.
void MutableGlobals::findUnreadWrites(const DenseSet<GlobalVariable *> &All) {
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &N : Nodes) {
      const Summary &S = *Summaries[N->Fn];
      const ActivityAnalysis &AA = *N->AA;
      auto Active = [&](const Value *V) {
        return AA.isVaried(V) || AA.hasShadow(V);
      };
      // (global, write to blame, the instruction here, the stored value)
      struct Write {
        GlobalVariable *G;
        const Instruction *Blame, *Site;
        const Value *Stored;
      };
      SmallVector<Write, 4> Stores;
      for (const Access &A : S.Direct) {
        if (!(A.Kinds & Writes) || N->Leaves.count(A.G))
          continue;
        if (auto *SI = dyn_cast<StoreInst>(A.I)) {
          if (Active(SI->getValueOperand()))
            Stores.push_back({A.G, A.I, A.I, SI->getValueOperand()});
        } else if (auto *MT = dyn_cast<MemTransferInst>(A.I)) {
          if (AA.hasShadow(MT->getSource()))
            Stores.push_back({A.G, A.I, A.I, nullptr});
        } else if (isa<CallBase>(A.I) && !isa<MemIntrinsic>(A.I)) {
          Stores.push_back({A.G, A.I, A.I, nullptr});
        }
      }
      for (auto [Call, Callee] : N->Callees)
        for (auto [G, Blame] : Callee->Leaves)
          if (!N->Leaves.count(G))
            Stores.push_back({G, Blame, Call, nullptr});
      for (const Write &W : Stores) {
        if (N->Leaves.count(W.G))
          continue;
        if (W.Stored && usedBesides(W.Stored, *W.Site, All))
          continue;
        RunsAfter After(*S.Canonical, {W.Site}, /*FromEntry=*/false, noBarrier);
        bool ReadBack = false;
        for (const Access &A : S.Direct)
          ReadBack |= A.G == W.G && (A.Kinds & Reads) && After.mayRun(*A.I);
        for (auto [Call, Callee] : S.Calls)
          if (const Summary *C = summaryOf(Callee))
            ReadBack |= C->MayLoad.count(W.G) && After.mayRun(*Call);
        if (!ReadBack) {
          N->Leaves[W.G] = W.Blame;
          Changed = true;
        }
      }
    }
  }
}

void MutableGlobals::check(ArrayRef<DifferentiatedRoot> Roots) {
  DenseSet<std::pair<const Instruction *, GlobalVariable *>> Reported;
  for (const DifferentiatedRoot &R : Roots) {
    Node &N = node(R.Fn, R.Args);
    const Summary &S = *Summaries[R.Fn];
    auto Report = [&](const Instruction *At, GlobalVariable *G,
                      const Twine &Reason, const Twine &Hint) {
      Failed.insert(R.Call);
      if (Reported.insert({At, G}).second)
        Ctx.Diag.error(At, Reason, Hint);
    };
    for (auto [G, W] : N.Leaves)
      Report(W, G,
             "a differentiated value is stored in global '" +
                 demangle(G->getName()) +
                 "' and nothing in the differentiated call reads it back: "
                 "the global is an output, whose derivative would be lost",
             "return the value or write it through an __ad_dup pointer; a "
             "global the call only uses as scratch must be read after it "
             "is written");
    for (auto &[G, W] : S.ReadsIncoming)
      Report(W.first, G,
             "global '" + demangle(G->getName()) +
                 "' is read before the differentiated call writes it, while "
                 "differentiated code writes derivatives into it: the value "
                 "read may be one an earlier differentiated call left, whose "
                 "derivative cannot reach this call",
             "pass the state as an __ad_dup argument, or write the global "
             "in the call before reading it");
    // Every global a function of the call mentions: it may read or write
    // it, or store its address (whose shadow goes with it).
    SetVector<GlobalVariable *> Mentioned;
    SmallVector<const Node *, 8> Work{&N};
    SmallPtrSet<const Node *, 8> Seen{&N};
    while (!Work.empty()) {
      const Node *M = Work.pop_back_val();
      for (GlobalVariable *G : Mentions.lookup(M->Fn))
        Mentioned.insert(G);
      for (auto [Call, Callee] : M->Callees)
        if (Seen.insert(Callee).second)
          Work.push_back(Callee);
    }
    for (GlobalVariable *G : Mentioned) {
      // Dynamic shared memory (CUDA's extern __shared__ T a[]) is sized at
      // launch; a shadow of its declared size (none) would overlap it.
      if (isBlockShared(*G) &&
          Ctx.M.getDataLayout().getTypeAllocSize(G->getValueType()) == 0) {
        SmallVector<Instruction *, 8> Uses = instructionsUsing(*G);
        if (!Uses.empty())
          Report(Uses.front(), G,
                 "dynamic shared memory ('extern __shared__ " +
                     demangle(G->getName()) +
                     "[]') in a differentiated function: its size is known "
                     "only at launch, so it has no shadow",
                 "declare the __shared__ array with a fixed size");
        continue;
      }
      Resets[R.Call].push_back(Shadowed.Shadow.lookup(G));
    }
  }
}

ArrayRef<GlobalVariable *>
MutableGlobals::shadowsToReset(const CallBase *Root) const {
  auto It = Resets.find(Root);
  return It == Resets.end() ? ArrayRef<GlobalVariable *>() : It->second;
}

void MutableGlobals::finish() {
  for (auto &[G, S] : Shadowed.Shadow)
    if (S->use_empty())
      S->eraseFromParent();
  Shadowed.Shadow.clear();
}

} // namespace ad

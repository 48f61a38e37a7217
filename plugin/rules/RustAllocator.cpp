//===- RustAllocator.cpp - Shadows through Rust's own allocator -----------===//
#include "rules/RustAllocator.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ad {

std::string rustAllocatorSibling(StringRef Name, RustAllocatorOp Op) {
  // The family is the identifier's prefix; in v0 the identifier is the
  // name's last, `<length>_<identifier>` (the `_` because it starts with
  // one).
  for (StringRef Family : {"__rust_", "__rdl_", "__rg_"}) {
    size_t Pos = Name.rfind(Family);
    if (Pos == StringRef::npos)
      continue;
    std::string Ident =
        (Family + (Op == RustAllocatorOp::Alloc ? "alloc" : "dealloc")).str();
    if (Pos == 0)
      return Ident;
    StringRef Prefix = Name.take_front(Pos);
    if (!Prefix.consume_back("_"))
      return "";
    size_t Digits = Prefix.size();
    while (Digits > 0 && isDigit(Prefix[Digits - 1]))
      --Digits;
    if (Digits == Prefix.size())
      return "";
    return (Prefix.take_front(Digits) + Twine(Ident.size()) + "_" + Ident)
        .str();
  }
  return "";
}

FunctionCallee rustAllocatorFunction(Module &M, StringRef Name,
                                     RustAllocatorOp Op) {
  std::string Sibling = rustAllocatorSibling(Name, Op);
  if (Sibling.empty())
    return FunctionCallee();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  if (Op == RustAllocatorOp::Alloc)
    return M.getOrInsertFunction(Sibling, Ptr, I64, I64);
  return M.getOrInsertFunction(Sibling, Type::getVoidTy(C), Ptr, I64, I64);
}

} // namespace ad

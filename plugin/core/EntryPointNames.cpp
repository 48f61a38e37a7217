//===- EntryPointNames.cpp - Which functions are the plugin's entry points ===//
#include "core/EntryPointNames.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Function.h"

using namespace llvm;

namespace ad {

std::optional<EntryPointKind> entryPointKind(const Function &F) {
  StringRef Name = F.getName();
  std::string Demangled;
  if (Name.starts_with("_Z")) {
    Demangled = demangle(Name);
    Name = Demangled;
    Name = Name.take_until([](char C) { return C == '(' || C == '<'; });
    // A return type before the name ("double __ad_autodiff(...)" never
    // appears for functions, but templates could add one).
    Name = Name.rsplit(' ').second.empty() ? Name : Name.rsplit(' ').second;
  }
  auto Matches = [&](StringRef Base) {
    return Name == Base || Name.starts_with((Base + "_").str());
  };
  if (Matches("__ad_autodiff"))
    return EntryPointKind::Reverse;
  if (Matches("__ad_fwddiff"))
    return EntryPointKind::Forward;
  return std::nullopt;
}

} // namespace ad

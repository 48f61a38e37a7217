//===- EmbeddedBitcode.cpp - Run-time support written in C, compiled in ---===//
#include "runtime/EmbeddedBitcode.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace ad {

std::unique_ptr<Module> parseEmbeddedBitcode(ArrayRef<unsigned char> Bytes,
                                             StringRef Name, Module &M) {
  StringRef Text(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
  Expected<std::unique_ptr<Module>> Parsed =
      parseBitcodeFile(MemoryBufferRef(Text, Name), M.getContext());
  if (!Parsed)
    report_fatal_error(Parsed.takeError());
  Module &R = **Parsed;
  R.setTargetTriple(M.getTargetTriple());
  R.setDataLayout(M.getDataLayout());
  for (const char *Meta : {"llvm.module.flags", "llvm.ident"})
    if (NamedMDNode *N = R.getNamedMetadata(Meta))
      R.eraseNamedMetadata(N);
  for (Function &F : R) {
    F.removeFnAttr("target-cpu");
    F.removeFnAttr("target-features");
    F.removeFnAttr("tune-cpu");
  }
  return std::move(*Parsed);
}

} // namespace ad

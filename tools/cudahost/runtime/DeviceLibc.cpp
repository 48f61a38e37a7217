//===- DeviceLibc.cpp - printf, assert and clocks of device code ----------===//
//
// Device `printf` reaches the runtime as CUDA's vprintf(format, buffer):
// clang packs the arguments into one buffer, each at its natural alignment,
// with float promoted to double and small integers to int. Device `assert`
// calls __assertfail, which stops the program as a trapped kernel stops a
// GPU's.
//
//===----------------------------------------------------------------------===//

#include "../CudaHostABI.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

/// The bytes one conversion takes in the argument buffer.
size_t argumentBytes(const std::string &Spec) {
  char Conversion = Spec.back();
  if (strchr("fFeEgGaA", Conversion))
    return 8;
  if (Conversion == 's' || Conversion == 'p')
    return 8;
  if (Spec.find('l') != std::string::npos ||
      Spec.find('z') != std::string::npos ||
      Spec.find('j') != std::string::npos ||
      Spec.find('t') != std::string::npos)
    return 8;
  return 4;
}

template <typename T> T read(const char *Args, size_t &Offset) {
  Offset = (Offset + sizeof(T) - 1) / sizeof(T) * sizeof(T);
  T Value;
  memcpy(&Value, Args + Offset, sizeof(T));
  Offset += sizeof(T);
  return Value;
}

} // namespace

extern "C" {

int __cudahost_vprintf(const char *Format, const char *Args) {
  std::string Out;
  size_t Offset = 0;
  char Piece[512];
  for (const char *P = Format; *P;) {
    if (*P != '%') {
      Out += *P++;
      continue;
    }
    if (P[1] == '%') {
      Out += '%';
      P += 2;
      continue;
    }
    const char *End = P + 1;
    while (*End && !strchr("diouxXcfFeEgGaAspn", *End))
      ++End;
    if (!*End)
      break;
    std::string Spec(P, End + 1);
    P = End + 1;
    if (Spec.back() == 'n')
      continue;
    size_t Bytes = argumentBytes(Spec);
    if (strchr("fFeEgGaA", Spec.back()))
      snprintf(Piece, sizeof Piece, Spec.c_str(), read<double>(Args, Offset));
    else if (Spec.back() == 's' || Spec.back() == 'p')
      snprintf(Piece, sizeof Piece, Spec.c_str(),
               read<const char *>(Args, Offset));
    else if (Bytes == 8)
      snprintf(Piece, sizeof Piece, Spec.c_str(),
               read<long long>(Args, Offset));
    else
      snprintf(Piece, sizeof Piece, Spec.c_str(), read<int>(Args, Offset));
    Out += Piece;
  }
  fputs(Out.c_str(), stdout);
  return int(Out.size());
}

void __cudahost_assertfail(const char *Message, const char *File, uint32_t Line,
                           const char *Function, size_t) {
  fflush(stdout);
  fprintf(stderr, "%s:%u: %s: device-side assertion `%s' failed.\n", File, Line,
          Function, Message);
  abort();
}

// PTX's prmt.b32 in its default mode: byte I of the result is the byte of
// {B, A} that nibble I of Selector names, or that byte's sign replicated
// when the nibble's bit 3 is set.
uint32_t __cudahost_prmt(uint32_t A, uint32_t B, uint32_t Selector) {
  uint64_t Bytes = uint64_t(B) << 32 | A;
  uint32_t Result = 0;
  for (int I = 0; I < 4; ++I) {
    uint32_t Nibble = Selector >> (4 * I) & 15;
    uint32_t Byte = Bytes >> (8 * (Nibble & 7)) & 0xff;
    if (Nibble & 8)
      Byte = Byte & 0x80 ? 0xff : 0;
    Result |= Byte << (8 * I);
  }
  return Result;
}

uint64_t __cudahost_clock64(void) {
  using namespace std::chrono;
  return duration_cast<nanoseconds>(steady_clock::now().time_since_epoch())
      .count();
}

uint64_t __cudahost_globaltimer(void) { return __cudahost_clock64(); }

} // extern "C"

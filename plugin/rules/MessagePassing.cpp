//===- MessagePassing.cpp - The table of MPI operations -------------------===//
#include "rules/MessagePassing.h"
#include "rules/KnownFunctions.h"
#include "runtime/MessageRuntime.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ad {
namespace {

// Open MPI's prototypes (mpi.h):
//   MPI_Send(buf, count, type, dest, tag, comm)
//   MPI_Recv(buf, count, type, source, tag, comm, status)
//   MPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag,
//                recvbuf, recvcount, recvtype, source, recvtag, comm, status)
//   MPI_Isend / MPI_Irecv: as Send / Recv with a request for the status
//   MPI_Wait(request, status), MPI_Waitall(count, requests, statuses)
//   MPI_Allreduce(sendbuf, recvbuf, count, type, op, comm)
//   MPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm)
//   MPI_Bcast(buf, count, type, root, comm)
// A broadcast's buffer is sent at the root and received elsewhere: its
// derivative comes from other ranks, so it counts as received.
// clang-format off
const MessageOperation Operations[] = {
  // Name            Record                Tangent
  //   Buffers    Received        Counts    Datatypes Reduction, Params
  {"MPI_Send",      "__ad_mpi_send",      "__ad_mpi_send_tangent",
     {0, -1},     {false, false}, {1, -1},  {2, -1},   -1, 6},
  {"MPI_Recv",      "__ad_mpi_recv",      "__ad_mpi_recv_tangent",
     {0, -1},     {true, false},  {1, -1},  {2, -1},   -1, 7},
  {"MPI_Sendrecv",  "__ad_mpi_sendrecv",  "__ad_mpi_sendrecv_tangent",
     {0, 5},      {false, true},  {1, 6},   {2, 7},    -1, 12},
  {"MPI_Isend",     "__ad_mpi_isend",     "__ad_mpi_isend_tangent",
     {0, -1},     {false, false}, {1, -1},  {2, -1},   -1, 7},
  {"MPI_Irecv",     "__ad_mpi_irecv",     "__ad_mpi_irecv_tangent",
     {0, -1},     {true, false},  {1, -1},  {2, -1},   -1, 7},
  {"MPI_Wait",      "__ad_mpi_wait",      "__ad_mpi_wait_tangent",
     {-1, -1},    {false, false}, {-1, -1}, {-1, -1},  -1, 2},
  {"MPI_Waitall",   "__ad_mpi_waitall",   "__ad_mpi_waitall_tangent",
     {-1, -1},    {false, false}, {-1, -1}, {-1, -1},  -1, 3},
  {"MPI_Allreduce", "__ad_mpi_allreduce", "__ad_mpi_allreduce_tangent",
     {0, 1},      {false, true},  {2, 2},   {3, 3},     4, 6},
  {"MPI_Reduce",    "__ad_mpi_reduce",    "__ad_mpi_reduce_tangent",
     {0, 1},      {false, true},  {2, 2},   {3, 3},     4, 7},
  {"MPI_Bcast",     "__ad_mpi_bcast",     "__ad_mpi_bcast_tangent",
     {0, -1},     {true, false},  {1, -1},  {2, -1},   -1, 5},
};
// clang-format on

} // namespace

std::optional<StringRef> predefinedHandleName(const Value *V,
                                              StringRef Prefix) {
  auto *G = dyn_cast<GlobalVariable>(V->stripPointerCasts());
  StringRef Name = G ? G->getName() : "";
  if (!Name.consume_front(Prefix))
    return std::nullopt;
  return Name;
}

MessageDatatype classifyMessageDatatype(const Value *V) {
  std::optional<StringRef> Known = predefinedHandleName(V, "ompi_mpi_");
  if (!Known)
    return MessageDatatype::Unknown;
  StringRef Name = *Known;
  if (Name == "double" || Name == "float" || Name == "dblprec" ||
      Name == "real")
    return MessageDatatype::Floating;
  static const char *const Integers[] = {
      "char",    "signed_char",    "unsigned_char", "wchar",
      "short",   "unsigned_short", "int",           "unsigned",
      "long",    "unsigned_long",  "long_long_int", "unsigned_long_long",
      "int8_t",  "uint8_t",        "int16_t",       "uint16_t",
      "int32_t", "uint32_t",       "int64_t",       "uint64_t",
      "c_bool",  "cxx_bool",       "aint",          "offset",
      "count",   "integer",        "logical",       "character",
      "2int"};
  for (const char *I : Integers)
    if (Name == I)
      return MessageDatatype::Inert;
  return MessageDatatype::Unsupported;
}

std::optional<unsigned> floatingElementBytes(const Value *Datatype) {
  if (classifyMessageDatatype(Datatype) != MessageDatatype::Floating)
    return std::nullopt;
  StringRef Name = *predefinedHandleName(Datatype, "ompi_mpi_");
  return Name == "double" || Name == "dblprec" ? 8 : 4;
}

const MessageOperation *messageOperationNamed(StringRef Name) {
  if (!Name.starts_with("MPI_"))
    return nullptr;
  for (const MessageOperation &Op : Operations)
    if (Name == Op.Name)
      return &Op;
  return nullptr;
}

const MessageOperation *messageOperationOfWrapper(StringRef Name) {
  if (!isMessageRuntimeName(Name))
    return nullptr;
  for (const MessageOperation &Op : Operations)
    if (Name == Op.Record || Name == Op.Tangent)
      return &Op;
  return nullptr;
}

const char *differentiatedMessageFunctions() {
  return "MPI_Send, MPI_Recv, MPI_Sendrecv, MPI_Isend, MPI_Irecv, MPI_Wait, "
         "MPI_Waitall, MPI_Allreduce, MPI_Reduce and MPI_Bcast (MPI_SUM, "
         "MPI_MAX, MPI_MIN) on MPI_DOUBLE or MPI_FLOAT data";
}

DenseSet<const Function *> findMessagePassers(const Module &M) {
  // The operations' declarations first: a module that calls no MPI (the
  // common case) costs a look at its function list, no walk of its code.
  DenseSet<const Function *> Passers;
  for (const Function &Callee : M)
    if (messageOperationNamed(Callee.getName()) ||
        messageOperationOfWrapper(Callee.getName()))
      for (const Use &U : Callee.uses())
        if (auto *Call = dyn_cast<CallBase>(U.getUser());
            Call && Call->isCallee(&U))
          Passers.insert(Call->getFunction());
  if (!Passers.empty())
    addTransitiveCallers(M, Passers);
  return Passers;
}

} // namespace ad

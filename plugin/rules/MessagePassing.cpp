//===- MessagePassing.cpp - The table of MPI operations -------------------===//
#include "rules/MessagePassing.h"
#include "runtime/MessageRuntime.h"
#include "llvm/ADT/STLExtras.h"

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
  //   Buffers      Received         Datatypes  Reduction  Params
  {"MPI_Send",      "__ad_mpi_send",      "__ad_mpi_send_tangent",
     {0, -1},     {false, false},  {2, -1},   -1, 6},
  {"MPI_Recv",      "__ad_mpi_recv",      "__ad_mpi_recv_tangent",
     {0, -1},     {true, false},   {2, -1},   -1, 7},
  {"MPI_Sendrecv",  "__ad_mpi_sendrecv",  "__ad_mpi_sendrecv_tangent",
     {0, 5},      {false, true},   {2, 7},    -1, 12},
  {"MPI_Isend",     "__ad_mpi_isend",     "__ad_mpi_isend_tangent",
     {0, -1},     {false, false},  {2, -1},   -1, 7},
  {"MPI_Irecv",     "__ad_mpi_irecv",     "__ad_mpi_irecv_tangent",
     {0, -1},     {true, false},   {2, -1},   -1, 7},
  {"MPI_Wait",      "__ad_mpi_wait",      "__ad_mpi_wait_tangent",
     {-1, -1},    {false, false},  {-1, -1},  -1, 2},
  {"MPI_Waitall",   "__ad_mpi_waitall",   "__ad_mpi_waitall_tangent",
     {-1, -1},    {false, false},  {-1, -1},  -1, 3},
  {"MPI_Allreduce", "__ad_mpi_allreduce", "__ad_mpi_allreduce_tangent",
     {0, 1},      {false, true},   {3, 3},    4, 6},
  {"MPI_Reduce",    "__ad_mpi_reduce",    "__ad_mpi_reduce_tangent",
     {0, 1},      {false, true},   {3, 3},    4, 7},
  {"MPI_Bcast",     "__ad_mpi_bcast",     "__ad_mpi_bcast_tangent",
     {0, -1},     {true, false},   {2, -1},   -1, 5},
};
// clang-format on

} // namespace

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

} // namespace ad

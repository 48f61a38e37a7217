//===- CallRowsTest.cpp - Every callee kind has its row -------------------===//
//
// The rows live in their topic files and rowOf indexes them: each kind must
// find its own row, and the columns the analyses rely on must say what the
// callee does (memcpy copies its second pointer's memory to its first, malloc
// returns fresh memory, a math call stores no derivative).
//
//===----------------------------------------------------------------------===//
#include "rules/CallRows.h"
#include "rules/MessagePassing.h"
#include "gtest/gtest.h"

using namespace ad;

namespace {

TEST(CallRows, EveryKindFindsItsRow) {
  for (unsigned K = 0; K <= unsigned(CalleeKind::Unknown); ++K)
    EXPECT_EQ(unsigned(rowOf(CalleeKind(K)).Kind), K);
}

TEST(CallRows, ColumnsSayWhatTheCalleeDoes) {
  EXPECT_EQ(rowOf(CalleeKind::MemCopy).Pointers,
            PointerRelation::CopiesSecondToFirst);
  EXPECT_EQ(rowOf(CalleeKind::Realloc).Pointers,
            PointerRelation::ResultContinuesFirst);
  EXPECT_TRUE(rowOf(CalleeKind::Malloc).ReturnsFreshMemory);
  EXPECT_FALSE(rowOf(CalleeKind::Math).WritesProgramMemory);
  EXPECT_FALSE(mayStoreDerivatives(rowOf(CalleeKind::Math)));
  EXPECT_TRUE(mayStoreDerivatives(rowOf(CalleeKind::MemCopy)));
  EXPECT_TRUE(takesNoShadows(rowOf(CalleeKind::Unknown)));
  EXPECT_TRUE(differentiatesCallee(rowOf(CalleeKind::Defined)));
  // Forward mode has a tangent for every kind that writes shadows.
  EXPECT_NE(rowOf(CalleeKind::MemSet).Tangent, nullptr);
  EXPECT_NE(rowOf(CalleeKind::MemCopy).Adjoint, nullptr);
  // An MPI operation's messages happen whatever this rank's activity: its
  // call is a root of what the derivative needs, in every sweep.
  const CallRow &Message = rowOf(CalleeKind::Message);
  EXPECT_TRUE(mayStoreDerivatives(Message));
  EXPECT_TRUE(Message.WritesProgramMemory);
  EXPECT_NE(Message.Tangent, nullptr);
  EXPECT_NE(Message.Forward, nullptr);
  EXPECT_NE(Message.Adjoint, nullptr);
}

TEST(MessagePassing, OperationsNameTheirBuffers) {
  // MPI_Sendrecv(sendbuf, .., recvbuf, ..): receives into argument 5 only.
  const MessageOperation *Op = messageOperationNamed("MPI_Sendrecv");
  ASSERT_NE(Op, nullptr);
  EXPECT_EQ(Op->bufferCount(), 2u);
  EXPECT_EQ(Op->Buffers[1], 5);
  EXPECT_FALSE(Op->Received[0]);
  EXPECT_TRUE(Op->Received[1]);
  EXPECT_EQ(messageOperationOfWrapper(Op->Record), Op);
  EXPECT_EQ(messageOperationOfWrapper(Op->Tangent), Op);
  // A broadcast's buffer is received (on every rank but the root).
  EXPECT_TRUE(messageOperationNamed("MPI_Bcast")->Received[0]);
  EXPECT_EQ(messageOperationNamed("MPI_Wait")->bufferCount(), 0u);
  EXPECT_EQ(messageOperationNamed("MPI_Scatter"), nullptr);
  EXPECT_EQ(messageOperationOfWrapper("__ad_mpi_reverse"), nullptr);
}

} // namespace

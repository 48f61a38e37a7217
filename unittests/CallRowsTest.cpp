//===- CallRowsTest.cpp - Every callee kind has its row -------------------===//
//
// The rows live in their topic files and rowOf indexes them: each kind must
// find its own row, and the columns the analyses rely on must say what the
// callee does (memcpy copies its second pointer's memory to its first, malloc
// returns fresh memory, a math call stores no derivative).
//
//===----------------------------------------------------------------------===//
#include "rules/CallRows.h"
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
}

} // namespace

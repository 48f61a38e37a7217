//===- MessagePassing.h - MPI operations, differentiated --------*- C++ -*-===//
//
// A program that runs on many machines exchanges data through MPI: what one
// rank sends, another receives, and a reduction combines every rank's data.
// The derivative must move the same way: a tangent travels with its value;
// an adjoint travels back, from the receiver to the sender, and from a
// reduction's result to its inputs. The MPI library has no IR body to
// differentiate, so each operation has a rule instead, in two parts:
//   - the canonical primal calls a wrapper of the run-time support
//     (runtime/mpi/MpiDerivatives.c) in place of the MPI function
//     (primal/MessageWrappers.h): the wrapper runs the operation and returns
//     a record of what the reverse sweep needs (the actual source and tag of
//     a receive, the request a wait completed, the ranks a maximum came
//     from), so the record is a primal value like any other, taped;
//   - the row (CalleeKind::Message, MessageCalls.cpp) passes the buffers'
//     shadows to the wrapper, calls its tangent twin in forward mode, and
//     hands the record to __ad_mpi_reverse in the reverse sweep.
// The table below is the one list of operations both parts read.
//
//===----------------------------------------------------------------------===//
#ifndef AD_RULES_MESSAGEPASSING_H
#define AD_RULES_MESSAGEPASSING_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>

namespace llvm {
class Function;
class Module;
class Value;
} // namespace llvm

namespace ad {

/// One MPI operation whose derivative the plugin knows.
struct MessageOperation {
  /// The MPI function (MPI_Send).
  const char *Name;
  /// The run-time support's wrapper: the operation, returning the record
  /// the reverse sweep reads (__ad_mpi_send).
  const char *Record;
  /// Forward mode's wrapper: the operation with the tangents moved along.
  const char *Tangent;
  /// The buffer arguments, in the order of the wrappers' shadow parameters
  /// (which follow the MPI function's own); -1 where there are fewer.
  int8_t Buffers[2];
  /// Whether the call writes that buffer with data from elsewhere (a
  /// receive, a reduction's result): its derivative comes from other ranks.
  bool Received[2];
  /// The count argument of each buffer (elements of its datatype).
  int8_t Counts[2];
  /// The MPI_Datatype argument that describes each buffer.
  int8_t Datatypes[2];
  /// The MPI_Op argument of a reduction, or -1.
  int8_t Reduction;
  /// How many parameters the MPI function has (a declaration with another
  /// count is not the MPI function).
  uint8_t Params;

  unsigned bufferCount() const { return (Buffers[0] >= 0) + (Buffers[1] >= 0); }
};

/// What an MPI datatype argument is to differentiation, where the call
/// names a predefined one (Open MPI's `ompi_mpi_<name>` globals).
enum class MessageDatatype {
  Floating,    ///< MPI_DOUBLE, MPI_FLOAT (and Fortran's): derivatives travel.
  Inert,       ///< An integer type: values only.
  Unsupported, ///< Bytes, complex, long double, ...: no derivative can.
  Unknown,     ///< Not a predefined type (one built at run time).
};
MessageDatatype classifyMessageDatatype(const llvm::Value *Datatype);
/// Data of such a datatype may hold floats (Floating, or not predefined).
inline bool mayHoldFloats(MessageDatatype T) {
  return T == MessageDatatype::Floating || T == MessageDatatype::Unknown;
}
/// The bytes of one element of a Floating datatype; nullopt for others.
std::optional<unsigned> floatingElementBytes(const llvm::Value *Datatype);
/// The name of the predefined MPI handle \p V (Open MPI's globals
/// `ompi_mpi_<name>` and `ompi_mpi_op_<name>`) after \p Prefix, or
/// nullopt for a handle made at run time.
std::optional<llvm::StringRef> predefinedHandleName(const llvm::Value *V,
                                                    llvm::StringRef Prefix);

/// The operation MPI function \p Name is, or nullptr.
const MessageOperation *messageOperationNamed(llvm::StringRef Name);
/// The operation whose wrapper (record or tangent) is \p Name, or nullptr.
const MessageOperation *messageOperationOfWrapper(llvm::StringRef Name);

/// The MPI functions the plugin differentiates, for messages that list them.
const char *differentiatedMessageFunctions();

/// The functions of \p M that call an operation of the table, directly or
/// through functions they call. A call of one needs its derivative whatever
/// its arguments: its messages meet other ranks' derivatives, which send
/// adjoints back or tangents along, whether or not this rank's data is
/// differentiated (a rank that sends constants still receives their
/// adjoints).
llvm::DenseSet<const llvm::Function *>
findMessagePassers(const llvm::Module &M);

} // namespace ad

#endif

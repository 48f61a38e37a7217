/*===- MpiDerivatives.c - Derivatives of MPI operations ------------------===*
 *
 * A program that runs on many ranks differentiates as one program: the
 * derivative of a message is a message. Each rank differentiates its own
 * code, and where the primal moved a value from one rank to another the
 * derivative moves its tangent the same way (forward mode) or its adjoint
 * back the other way (reverse mode). The plugin replaces each MPI call of
 * the derivative's primal by a wrapper here (MpiDerivatives.h says how);
 * what the wrappers guarantee:
 *
 *  - The primal operation happens exactly as the user wrote it: same
 *    buffers, peers, tags and communicator, statuses and requests filled as
 *    MPI fills them. Only MPI_DOUBLE and MPI_FLOAT data (and Fortran's MPI_DOUBLE_PRECISION and
 *    MPI_REAL) carry derivatives;
 *    on any other datatype the wrapper is the MPI call (MPI requires both
 *    sides of a message, and all ranks of a collective, to agree on the
 *    type, so they agree on whether a derivative travels). A buffer
 *    without a shadow has a zero derivative, and still sends or receives
 *    it: which messages exist never depends on one rank's shadows.
 *
 *  - Forward mode sends the tangents inside the primal message: values
 *    then tangents, 2n elements where the primal sent n. Matching is then
 *    the primal's own, wildcards and all. A reduction reduces the packed
 *    pair (MPI_SUM), or finds the winners first (MAX, MIN).
 *
 *  - Reverse mode cannot ride on the primal's messages: adjoints travel
 *    after the whole forward sweep, in reverse order, and ranks reach them
 *    at their own pace (a rank may post an adjoint receive before its peer
 *    has finished the forward sweep). So each adjoint message has a tag of
 *    its own, (1 << 30) | (tag & 0x7FFF) << 15 | (seq & 0x7FFF): tag the
 *    primal's, seq the message's index in its stream (communicator,
 *    sender, receiver, tag), which the sender counts when it posts and the
 *    receiver when it posts an explicit receive (MPI's non-overtaking rule
 *    makes the two counts agree) or, under a wildcard, when the receive
 *    completes and the status names the stream. Primal tags stay below
 *    2^30, so no adjoint matches a primal message, and two adjoints match
 *    each other only if they are the same message's. A receive's adjoint
 *    sends the receive buffer's shadow and resets it; a send's adjoint
 *    receives and adds into the send buffer's shadow.
 *
 *  - MPI_Isend and MPI_Irecv are completed by a wait, which in the reverse
 *    sweep comes first: a wait's reverse posts the adjoint operations
 *    (non-blocking, as the primal was), and the reverse of the Isend or
 *    Irecv that started them waits for them. The two records share the
 *    operation, which the later one frees.
 *
 *  - A primal receive with MPI_ANY_TAG would also match an adjoint that a
 *    peer already in its reverse sweep sent: it looks first (MPI_Mprobe)
 *    and sets such a message aside for the adjoint receive it is meant for.
 *
 *  - MAX and MIN: the derivative belongs to the element that won, on the
 *    lowest rank among equals. The forward sweep reduces (value, rank)
 *    pairs with MPI_MAXLOC or MPI_MINLOC: one collective gives the values
 *    the primal would and the winners, which the record keeps.
 *
 * What cannot be differentiated stops the program at once, with a message
 * on stderr and MPI_Abort: long double, complex or derived-datatype data
 * with a shadow, a reduction other than SUM, MAX, MIN on data with a shadow, a point to
 * point tag of 2^30 or more in reverse mode.
 *
 * This file is compiled to bitcode and linked into each module whose
 * derivative calls MPI, as one copy per program (runtime/MessageRuntime.cpp
 * makes its definitions and state linkonce_odr: a request posted in one
 * file may be waited for in another). It uses libc and MPI only, and expects one
 * thread to call MPI (MPI_THREAD_SINGLE or FUNNELED): its two tables (the
 * stream counters, the pending requests) are plain globals.
 *===----------------------------------------------------------------------===*/
#include "MpiDerivatives.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The parts, in order: each uses what the earlier ones define. */
#include "MpiValues.c"
#include "MpiMessages.c"
#include "MpiRequests.c"
#include "MpiReverse.c"
#include "MpiTangents.c"

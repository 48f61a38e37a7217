//===- FusedIterations.h - A gradient that reverses each iteration at once ===//
//
// Where the iterations of a function's loop nest are independent
// (analysis/IndependentIterations.h) and nothing outside the nest's body has
// a derivative, the gradient of the function is the function itself with
// each iteration's body replaced by the gradient of that body: the body is
// outlined (CodeExtractor) into a function of the iteration's values, and
// each iteration calls its gradient, which runs the iteration's forward and
// reverse back to back. That gradient's tape holds one iteration and is
// reused by the next (the tape's buffer is kept between calls), so it stays
// in cache; and since a small tape is cheap, the body's gradient tapes the
// results of library math calls (exp, log, tanh) instead of recomputing them
// (DerivativeSignature::FusedIteration). A softmax row's exponentials are
// computed once, as the handwritten backward of llm.c's fused
// softmax-crossentropy has them.
//
// Where the independence holds only under run-time checks, or an inspection
// of the loads that place accesses (IndependentNest), the nest is versioned
// on them before it starts, and the gradient calls the ordinary one, its
// sweeps whole (DerivativeCache::sweptGradient), where they fail.
//
// Only where the body calls such a math function inside a loop of its own:
// elsewhere (a matrix product's dot products) an iteration tapes nothing
// that fusing would keep in cache, and a call per iteration only costs.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_FUSEDITERATIONS_H
#define AD_MODES_FUSEDITERATIONS_H

namespace llvm {
class Function;
} // namespace llvm

namespace ad {

class DerivativeCache;
struct ADContext;
struct DerivativeSignature;

/// Builds into \p Out (an empty function of the gradient's type) the fused
/// gradient of \p Sig's function described above; false, leaving \p Out
/// untouched, where it does not apply.
bool buildFusedGradient(ADContext &Ctx, DerivativeCache &Cache,
                        const DerivativeSignature &Sig, llvm::Function &Out);

} // namespace ad

#endif

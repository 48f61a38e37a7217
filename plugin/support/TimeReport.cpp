//===- TimeReport.cpp - Where the plugin's compile time goes --------------===//
#include "support/TimeReport.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Timer.h"
#include <iterator>

using namespace llvm;

static cl::opt<bool>
    TimeReportEnabled("ad-time-report",
                      cl::desc("Print the time each phase of automatic "
                               "differentiation took (ADPlugin)"),
                      cl::init(false));

namespace ad {

namespace {
struct PhaseName {
  const char *Name;
  const char *Description;
};
// In ADPhase order.
const PhaseName PhaseNames[] = {
    {"ad-driver", "Driver: lowering calls, cleanup, remarks"},
    {"ad-parse", "Parsing entry-point calls"},
    {"ad-canonical", "Canonical primal (clone, mem2reg, one return)"},
    {"ad-activity", "Activity analysis"},
    {"ad-forward", "Forward-mode synthesis"},
    {"ad-reverse", "Reverse-mode synthesis"},
    {"ad-verify", "Verification of new functions"},
    {"ad-optimize", "Post-AD optimization of new functions"},
};
} // namespace

/// One run's timers, and the phases now open, innermost last: only that one
/// is running.
class TimeReportData {
public:
  TimeReportData() {
    for (auto [T, N] : zip(Timers, PhaseNames))
      T.init(N.Name, N.Description, Group);
  }
  ~TimeReportData() {
    // The timers print into the group as they are destroyed (members go in
    // reverse order), and the group prints the report when it goes.
    for (Timer &T : Timers)
      if (T.isRunning())
        T.stopTimer();
  }

  void enter(ADPhase P) {
    if (!Open.empty())
      Open.back()->stopTimer();
    Open.push_back(&Timers[unsigned(P)]);
    Open.back()->startTimer();
  }
  void leave() {
    Open.pop_back_val()->stopTimer();
    if (!Open.empty())
      Open.back()->startTimer();
  }

private:
  TimerGroup Group{"ad", "ADPlugin compile time (-ad-time-report)"};
  Timer Timers[std::size(PhaseNames)];
  SmallVector<Timer *, 8> Open;
};

/// The report being collected by this thread's run of the pass, if any
/// (ThinLTO may run several modules' pipelines in parallel).
static thread_local TimeReportData *Current = nullptr;

ADPhaseTimer::ADPhaseTimer(ADPhase Phase) : Active(Current) {
  if (Active)
    Current->enter(Phase);
}

ADPhaseTimer::~ADPhaseTimer() {
  if (Active)
    Current->leave();
}

ADTimeReport::ADTimeReport() {
  if (!TimeReportEnabled || Current)
    return;
  Data = new TimeReportData();
  Current = Data;
  Current->enter(ADPhase::Driver);
}

ADTimeReport::~ADTimeReport() {
  if (!Data)
    return;
  Data->leave();
  Current = nullptr;
  delete Data;
}

} // namespace ad

//===- TimeReport.h - Where the plugin's compile time goes ----------------===//
//
// With -ad-time-report (clang: -mllvm -ad-time-report) each run of the pass
// prints, to LLVM's info output (stderr unless -info-output-file says
// otherwise), the time spent in each phase of differentiation:
//
//   ADPhaseTimer T(ADPhase::Activity);   // until the end of the scope
//
// Phases nest (a reverse-mode derivative asks for the derivatives of its
// callees, each with its own canonical primal and activity analysis), and
// each phase is charged only its *own* time: starting a phase pauses the one
// it interrupts, so the lines of the report add up to the pass's total.
// The timing itself is LLVM's (Timer, TimerGroup). Without the option a
// phase timer costs one test of a thread-local pointer.
//
//===----------------------------------------------------------------------===//
#ifndef AD_DRIVER_TIMEREPORT_H
#define AD_DRIVER_TIMEREPORT_H

namespace ad {

enum class ADPhase {
  Driver, ///< Everything in ADPass::run not in a phase below.
  ParseCalls,
  CanonicalPrimal,
  Activity,
  ForwardMode,
  ReverseMode,
  Verify,
  Optimize,
};

/// Charges the enclosing scope's time to \p Phase (nothing when no report is
/// being collected).
class ADPhaseTimer {
public:
  explicit ADPhaseTimer(ADPhase Phase);
  ~ADPhaseTimer();
  ADPhaseTimer(const ADPhaseTimer &) = delete;
  ADPhaseTimer &operator=(const ADPhaseTimer &) = delete;

private:
  bool Active;
};

class TimeReportData;

/// Collects the report for one run of the pass when -ad-time-report is set,
/// and prints it when destroyed. The run's whole time is charged to
/// ADPhase::Driver except where a nested ADPhaseTimer takes over.
class ADTimeReport {
public:
  ADTimeReport();
  ~ADTimeReport();
  ADTimeReport(const ADTimeReport &) = delete;
  ADTimeReport &operator=(const ADTimeReport &) = delete;

private:
  TimeReportData *Data = nullptr;
};

} // namespace ad

#endif

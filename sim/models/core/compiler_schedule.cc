#include "compiler_schedule.h"

#include <algorithm>

#include "numeric.h"

namespace warpsim::models {

std::optional<CompilerSchedule> compiler_schedule(const KernelLaunch& launch) {
  if (!launch.has_sass()) return std::nullopt;
  const SassSummary& sass = launch.sass();
  if (sass.instructions() == 0) return std::nullopt;
  CompilerSchedule schedule;
  // Every issued instruction waits at least one cycle for the next issue slot.
  schedule.issue_cycles =
      std::max(1.0, static_cast<double>(sass.stall_cycles()) / static_cast<double>(sass.instructions()));
  // Producers without a later waiter (a load used at the top of the next loop iteration) are left out of the mean:
  // their distance is not in the code order.
  const uint64_t covered = sass.variable_latency() > sass.uncovered() ? sass.variable_latency() - sass.uncovered() : 0;
  if (covered > 0) schedule.cover_cycles = static_cast<double>(sass.cover_cycles()) / static_cast<double>(covered);
  // Where the summary splits the cover: the global loads' own mean, and the rest's (0 when nothing else is covered).
  if (sass.has_global_cover_cycles() && sass.global_loads() > 0 && sass.global_loads() <= covered &&
      sass.global_cover_cycles() <= sass.cover_cycles()) {
    schedule.global_cover_cycles =
        static_cast<double>(sass.global_cover_cycles()) / static_cast<double>(sass.global_loads());
    const uint64_t others = covered - sass.global_loads();
    schedule.cover_cycles =
        others > 0 ? static_cast<double>(sass.cover_cycles() - sass.global_cover_cycles()) / static_cast<double>(others)
                   : 0;
  }
  // The main loop's where the summary has one (where the warps spend their time: a column walk's loop keeps 16 loads
  // in flight, its remainder loops fewer), else the whole code's.
  if (sass.main_loop_global_loads() > 0 && sass.main_loop_global_stall_points() > 0)
    schedule.global_loads_per_stall = std::max(1.0, static_cast<double>(sass.main_loop_global_loads()) /
                                                        static_cast<double>(sass.main_loop_global_stall_points()));
  else if (sass.global_loads() > 0 && sass.global_stall_points() > 0)
    schedule.global_loads_per_stall =
        std::max(1.0, static_cast<double>(sass.global_loads()) / static_cast<double>(sass.global_stall_points()));
  if (sass.constant_loads() > 0 && sass.constant_cover_cycles() <= sass.cover_cycles()) {
    schedule.constant_cover_cycles =
        static_cast<double>(sass.constant_cover_cycles()) / static_cast<double>(sass.constant_loads());
    schedule.constant_stalls = static_cast<double>(sass.constant_stall_points());
  }
  if (sass.has_barriers())
    schedule.barriers_per_instruction = static_cast<double>(sass.barriers()) / static_cast<double>(sass.instructions());
  return schedule;
}

double warp_issue_cycles(const KernelLaunch& launch, const CompilerSchedule& schedule, double issued) {
  if (!launch.has_sass() || issued <= 0) return schedule.issue_cycles;
  const SassSummary& sass = launch.sass();
  // Counted: the stall counts of the instructions the warps ran, each as often as it ran.
  if (sass.executed_instructions() > 0)
    return std::max(1.0, as_double(sass.executed_stall_cycles()) / as_double(sass.executed_instructions()));
  const double loop = as_double(sass.main_loop_instructions());
  const double rest = as_double(sass.instructions()) - loop;
  if (loop <= 0 || rest <= 0 || sass.main_loop_stall_cycles() > sass.stall_cycles()) return schedule.issue_cycles;
  const double in_loop = std::clamp((issued - rest) / issued, 0.0, 1.0);
  const double loop_spacing = as_double(sass.main_loop_stall_cycles()) / loop;
  const double rest_spacing = as_double(sass.stall_cycles() - sass.main_loop_stall_cycles()) / rest;
  return std::max(1.0, in_loop * loop_spacing + (1 - in_loop) * rest_spacing);
}

double warp_constant_stalls(const KernelLaunch& launch, const CompilerSchedule& schedule, double issued) {
  if (!launch.has_sass() || schedule.constant_stalls <= 0) return schedule.constant_stalls;
  const SassSummary& sass = launch.sass();
  const double loop = as_double(sass.main_loop_instructions());
  const double rest = as_double(sass.instructions()) - loop;
  const double in_loop = as_double(sass.main_loop_constant_stall_points());
  if (loop <= 0 || rest < 0 || in_loop > schedule.constant_stalls) return schedule.constant_stalls;
  const double iterations = std::max(0.0, issued - rest) / loop;
  return schedule.constant_stalls - in_loop + iterations * in_loop;
}

double warp_global_loads_per_stall(const KernelLaunch& launch, const CompilerSchedule& schedule, double issued,
                                   double waited_loads) {
  if (!launch.has_sass()) return schedule.global_loads_per_stall;
  const SassSummary& sass = launch.sass();
  if (issued >= as_double(sass.main_loop_instructions()) || sass.global_stall_points() == 0 || sass.instructions() == 0)
    return schedule.global_loads_per_stall;
  const double stalls = issued * as_double(sass.global_stall_points()) / as_double(sass.instructions());
  return std::max(1.0, waited_loads / stalls);
}

}  // namespace warpsim::models

#include "latency_values.h"

#include <fmt/format.h>

#include <array>

#include "statistics.h"

namespace warpsim::calibrate {

Measurements latency_values(const BenchmarkRun& run) {
  struct Level {
    const char* name;
    const char* set_bytes;
    const char* field;
  };
  constexpr std::array<Level, 3> kLevels = {{{"l1", "16384", "sm.latency_cycles.l1_hit"},
                                             {"l2", "4194304", "sm.latency_cycles.l2_hit"},
                                             {"dram", "268435456", "sm.latency_cycles.dram"}}};
  Measurements found;
  for (const Level& level : kLevels) {
    const double cycles = median(run.log.numbers({"latency", "unloaded", level.name, level.set_bytes}, 4));
    found.push_back({level.field, fmt::format("{:.1f}", cycles),
                     fmt::format("MEASURED {}: one thread's pointer chase over {} bytes, SM cycles", run.provenance(),
                                 level.set_bytes)});
  }
  return found;
}

}  // namespace warpsim::calibrate

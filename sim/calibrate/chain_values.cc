#include "chain_values.h"

#include <fmt/format.h>

#include <array>

#include "statistics.h"

namespace warpsim::calibrate {

Measurements chain_values(const BenchmarkRun& run) {
  struct Chain {
    const char* chain_class;  // the benchmark's word for it
    const char* field;
    const char* what;
  };
  // int32 is the integer unit's own instructions (integer add, LOP3: the ALU pipe the int32 lanes count); the
  // benchmark's IMAD runs on the FMA pipe and is printed beside them, not taken.
  constexpr std::array<Chain, 5> kChains = {
      {{"fp32", "sm.latency_cycles.fp32", "FFMA"},
       {"fp64", "sm.latency_cycles.fp64", "DFMA"},
       {"alu", "sm.latency_cycles.int32", "integer add and LOP3"},
       {"sfu", "sm.latency_cycles.sfu", "MUFU (the median of its functions' chains)"},
       {"shared", "sm.latency_cycles.shared", "LDS pointer chase"}}};
  Measurements found;
  for (const Chain& chain : kChains) {
    const double cycles = median(run.log.numbers({"chain", chain.chain_class}, 3));
    found.push_back({chain.field, fmt::format("{:.1f}", cycles),
                     fmt::format("MEASURED {}: one warp's chain of dependent {}, clock64 cycles per instruction",
                                 run.provenance(), chain.what)});
  }
  return found;
}

}  // namespace warpsim::calibrate

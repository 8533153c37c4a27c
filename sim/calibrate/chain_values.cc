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
  // The constant chase's step is an SHF (the ALU) and an LDC: the LDC's latency is the step less the ALU's. Runs of
  // the benchmark from before it had the chase leave the field to the shipped file.
  if (!run.log.lines_starting({"chain", "constant_indexed"}).empty()) {
    const double step = median(run.log.numbers({"chain", "constant_indexed"}, 3));
    const double alu = median(run.log.numbers({"chain", "alu"}, 3));
    found.push_back({"sm.latency_cycles.constant", fmt::format("{:.1f}", step - alu),
                     fmt::format("MEASURED {}: one warp's indexed __constant__ chase, {:.2f} clock64 cycles a step of "
                                 "SHF and LDC less the ALU's {:.2f}",
                                 run.provenance(), step, alu)});
  }
  return found;
}

}  // namespace warpsim::calibrate

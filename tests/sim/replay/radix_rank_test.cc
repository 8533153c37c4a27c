// Paper 000's experiment on our own recordings: the three radix-sort implementations (global, shared, hybrid) ranked
// by total kernel time, recorded and simulated. The simulation is `warpsim simulate`'s: the model predicts each
// kernel's SM time from its counters (never its recorded time) and the replay runs it beside the kernel's DRAM and L2
// transfers on the platform. Only this test reads the recorded end - start of the merged trace.
//
// Result (sim/models/petri/README.md, "Radix sort"): both `petri` and `petri-paper` rank the implementations as
// recorded, global > hybrid > shared, on H100 and H200. The paper's net alone (its SM time, without the transfers)
// ranks shared above hybrid: hybrid's extra cost is the DRAM traffic of its flags and ranks, a bandwidth the net has
// no place for and the replay does. Each test runs one simulation, in its own process (SimGrid, notes/simgrid.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <iostream>
#include <string>

#include "platform.h"
#include "registry.h"
#include "simulation.h"

namespace warpsim::replay {
namespace {

constexpr std::array<const char*, 3> kImplementations{"radix_global_", "radix_shared_", "radix_hybrid_"};
enum Implementation : int { kGlobal, kShared, kHybrid };

using Seconds = std::array<double, 3>;

int implementation(const std::string& name) {
  for (size_t i = 0; i < kImplementations.size(); ++i) {
    if (name.find(kImplementations[i]) != std::string::npos) return static_cast<int>(i);
  }
  return -1;
}

double duration_s(const KernelLaunch& kernel) { return static_cast<double>(kernel.end_ns() - kernel.start_ns()) * 1e-9; }

// Total kernel time of each implementation over `events`; counts the kernels too.
Seconds totals(const std::vector<Event>& events, std::array<int, 3>* kernels = nullptr) {
  Seconds t{};
  for (const Event& event : events) {
    if (!event.has_kernel()) continue;
    const int i = implementation(event.kernel().name());
    if (i < 0) continue;
    t[static_cast<size_t>(i)] += duration_s(event.kernel());
    if (kernels != nullptr) ++(*kernels)[static_cast<size_t>(i)];
  }
  return t;
}

// Implementation indices from slowest to fastest.
std::array<int, 3> ranking(const Seconds& seconds) {
  std::array<int, 3> order{kGlobal, kShared, kHybrid};
  std::sort(order.begin(), order.end(),
            [&seconds](int a, int b) { return seconds[static_cast<size_t>(a)] > seconds[static_cast<size_t>(b)]; });
  return order;
}

void expect_ranked_as_recorded(const std::string& trace_path, const std::string& node, const std::string& model_name) {
  const SourceTrace trace = read_source_trace(std::string(WARPSIM_TEST_DATA) + "/../../workloads/traces/" + trace_path);
  std::array<int, 3> kernels{};
  const Seconds recorded = totals(trace.events, &kernels);
  ASSERT_EQ(kernels, (std::array<int, 3>{160, 96, 128}));  // 32 passes of 5, 3 and 4 kernels
  ASSERT_EQ(ranking(recorded), (std::array<int, 3>{kGlobal, kHybrid, kShared})) << "recorded: global > hybrid > shared";

  const auto model = models::make_model(model_name);
  const SimulationResult result = simulate(trace, platform::load_platform(node), model.get(), SimulationOptions{});
  const Seconds simulated = totals(result.events);
  for (size_t i = 0; i < kImplementations.size(); ++i) {
    std::cout << trace_path << "  " << kImplementations[i] << "  recorded " << recorded[i] * 1e3 << " ms  "
              << model_name << " " << simulated[i] * 1e3 << " ms\n";
  }
  EXPECT_EQ(ranking(simulated), ranking(recorded));
}

TEST(RadixRank, PetriPaperRanksTheH100ImplementationsAsRecorded) {
  expect_ranked_as_recorded("H100-80GB-HBM3/radix_sort.merged.wstrace", "h100-pcie", "petri-paper");
}

TEST(RadixRank, PetriPaperRanksTheH200ImplementationsAsRecorded) {
  expect_ranked_as_recorded("H200/radix_sort.merged.wstrace", "h200", "petri-paper");
}

TEST(RadixRank, PetriRanksTheH100ImplementationsAsRecorded) {
  expect_ranked_as_recorded("H100-80GB-HBM3/radix_sort.merged.wstrace", "h100-pcie", "petri");
}

TEST(RadixRank, PetriRanksTheH200ImplementationsAsRecorded) {
  expect_ranked_as_recorded("H200/radix_sort.merged.wstrace", "h200", "petri");
}

}  // namespace
}  // namespace warpsim::replay

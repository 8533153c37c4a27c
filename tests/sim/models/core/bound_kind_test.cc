// The words of every limiter the models give, sorted into the bound kinds reports show.
#include "bound_kind.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace warpsim::models {
namespace {

void expect_kind(const std::vector<std::string>& limiters, SimulatedBound::Kind kind) {
  for (const std::string& limiter : limiters) {
    EXPECT_EQ(bound_kind_of(limiter), kind) << '"' << limiter << "\" is " << SimulatedBound::Kind_Name(kind);
  }
}

TEST(BoundKind, PipesAndIssueAreCompute) {
  expect_kind({"fma pipe", "alu pipe", "fp64 pipe", "xu pipe", "lsu pipe", "tensor pipe", "issue",
               "compute bound (MWP > CWP): fma pipe", "computation over memory (Comp_cycles > Mem_cycles): issue",
               "compute bound (no memory instructions): alu pipe"},
              SimulatedBound::COMPUTE);
}

TEST(BoundKind, TheGpusOwnMemoryLevelsAreMemory) {
  expect_kind({"l1 bandwidth", "shared wavefronts", "l1 data stage", "shared bandwidth", "l2 bandwidth",
               "dram bandwidth", "uncoalesced bandwidth", "l2 slice atomics", "l2 hot slice", "dram bytes (no counters)",
               "memory bound (CWP >= MWP): dram bandwidth", "compute bound (MWP > CWP): l1 bandwidth"},
              SimulatedBound::MEMORY);
}

TEST(BoundKind, WaitingForResultsIsLatency) {
  expect_kind({"latency", "latency (no counters)", "dram concurrency", "not enough warps (MWP = CWP = N)",
               "memory bound (CWP >= MWP): departure delay"},
              SimulatedBound::LATENCY);
}

TEST(BoundKind, PeerReadsAreRemoteAndDispatchIsLaunch) {
  expect_kind({"peer concurrency"}, SimulatedBound::REMOTE);
  expect_kind({"block dispatch"}, SimulatedBound::LAUNCH);
}

TEST(BoundKind, NoLimiterOrAKernelThatDoesNotFitHasNoKind) {
  expect_kind({"", "does not fit: shared memory", "something new"}, SimulatedBound::KIND_UNSPECIFIED);
}

}  // namespace
}  // namespace warpsim::models

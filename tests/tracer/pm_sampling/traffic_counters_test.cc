// Traffic mode's counters and the trace rows made of CUPTI's decoded samples.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "pm_sampling/traffic_counters.h"

namespace warpsim::tracer {
namespace {

TEST(TrafficCounters, TheSixCountersFillTheSixFieldsOfASample) {
  const std::vector<TrafficCounter>& counters = traffic_counters();
  ASSERT_EQ(counters.size(), 6u);
  EXPECT_STREQ(counters[0].metric, "pcie__read_bytes.sum");
  std::set<std::string> names;
  TrafficSample sample;
  for (std::size_t i = 0; i < counters.size(); ++i) {
    names.insert(counters[i].metric);
    counters[i].set(sample, 100 + i);
  }
  EXPECT_EQ(names, (std::set<std::string>{"pcie__read_bytes.sum", "pcie__write_bytes.sum", "nvlrx__bytes.sum",
                                          "nvltx__bytes.sum", "dram__bytes_read.sum", "dram__bytes_write.sum"}));
  EXPECT_EQ(sample.pcie_read_bytes(), 100u);
  EXPECT_EQ(sample.pcie_write_bytes(), 101u);
  EXPECT_EQ(sample.nvlink_rx_bytes(), 102u);
  EXPECT_EQ(sample.nvlink_tx_bytes(), 103u);
  EXPECT_EQ(sample.dram_read_bytes(), 104u);
  EXPECT_EQ(sample.dram_write_bytes(), 105u);
}

TEST(TrafficCounters, ACounterTheChipLacksIsLeftUnset) {
  // The chip offered PCIe reads and DRAM reads only: the session's values are for those two, in that order.
  const std::vector<TrafficCounter> sampled = {traffic_counters()[0], traffic_counters()[4]};
  const auto sample = to_traffic_sample({1000, 6000, {4096.0, 65536.4}}, sampled);
  ASSERT_TRUE(sample);
  EXPECT_EQ(sample->start_ns(), 1000u);
  EXPECT_EQ(sample->end_ns(), 6000u);
  EXPECT_EQ(sample->pcie_read_bytes(), 4096u);
  EXPECT_EQ(sample->dram_read_bytes(), 65536u) << "CUPTI's doubles rounded to bytes";
  EXPECT_FALSE(sample->has_pcie_write_bytes());
  EXPECT_FALSE(sample->has_nvlink_rx_bytes());
  EXPECT_FALSE(sample->has_dram_write_bytes());
}

TEST(TrafficCounters, ValuesThatMeasureNothingAreLeftUnsetAndZeroIsKept) {
  const std::vector<TrafficCounter>& all = traffic_counters();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const auto sample = to_traffic_sample({0, 10, {0.0, nan, -1.0, inf, 2.6, 1e30}}, all);
  ASSERT_TRUE(sample);
  ASSERT_TRUE(sample->has_pcie_read_bytes());
  EXPECT_EQ(sample->pcie_read_bytes(), 0u);
  EXPECT_FALSE(sample->has_pcie_write_bytes());
  EXPECT_FALSE(sample->has_nvlink_rx_bytes());
  EXPECT_FALSE(sample->has_nvlink_tx_bytes());
  EXPECT_EQ(sample->dram_read_bytes(), 3u);
  EXPECT_EQ(sample->dram_write_bytes(), std::numeric_limits<std::uint64_t>::max()) << "saturated, not wrapped";
}

TEST(TrafficCounters, ASampleEndingBeforeItStartsIsDropped) {
  EXPECT_FALSE(to_traffic_sample({5000, 4000, {1.0}}, traffic_counters()));
  EXPECT_TRUE(to_traffic_sample({5000, 5000, {1.0}}, traffic_counters()));
}

}  // namespace
}  // namespace warpsim::tracer

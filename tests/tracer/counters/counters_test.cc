// Counters mode without a GPU: the metric catalogue, where each value lands, launch selection and the store that
// hands counters from a launch to its kernel record.
#include <gtest/gtest.h>

#include <limits>

#include <set>
#include <stdexcept>

#include "counters/counter_metrics.h"
#include "counters/counters_store.h"
#include "counters/launch_selector.h"

namespace warpsim::tracer {
namespace {

TEST(CounterMetrics, AValueNoCountCanHaveLeavesTheFieldUnset) {
  // The links group on a GPU without NVLink peers (H100, H200 alone) hands back such values for nvlrx/nvltx; they
  // were stored as 2^63.
  for (const double value : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                             9223372036854775808.0, 1.8446744073709552e19}) {
    KernelCounters c;
    set_counter(c, "nvlrx__bytes.sum", value);
    set_counter(c, "nvltx__bytes.sum", value);
    set_counter(c, "some__unknown_metric.sum", value);
    EXPECT_FALSE(c.memory().has_nvlink_rx_bytes()) << value;
    EXPECT_FALSE(c.memory().has_nvlink_tx_bytes()) << value;
    EXPECT_TRUE(c.extra_metrics().empty()) << value;
  }
  KernelCounters c;
  set_counter(c, "nvlrx__bytes.sum", 302e6);
  EXPECT_EQ(c.memory().nvlink_rx_bytes(), 302000000u);
}

TEST(CounterMetrics, EveryCatalogueMetricLandsInATypedField) {
  for (MetricGroup group : {MetricGroup::kCore, MetricGroup::kLinks}) {
    for (const std::string& metric : metric_names(group)) {
      KernelCounters counters;
      set_counter(counters, metric, 7.0);
      EXPECT_TRUE(counters.extra_metrics().empty()) << metric << " has no typed field";
      EXPECT_GT(counters.ByteSizeLong(), 0u) << metric;
    }
  }
}

TEST(CounterMetrics, ValuesGoWhereTheirNamesSay) {
  KernelCounters c;
  set_counter(c, "smsp__inst_executed.sum", 1230897152.0);
  set_counter(c, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 8589934592.0);
  set_counter(c, "dram__bytes_read.sum", 33577984.4);
  set_counter(c, "lts__t_sector_hit_rate.pct", 98.7);
  set_counter(c, "nvlrx__bytes.sum", 72e6);
  set_counter(c, "sm__warps_active.avg.pct_of_peak_sustained_active", 97.9);
  set_counter(c, "gpu__time_duration.sum", 5.0);  // not in the catalogue
  EXPECT_EQ(c.warp_instructions().total(), 1230897152u);
  EXPECT_EQ(c.thread_instructions().ffma(), 8589934592u);
  EXPECT_EQ(c.memory().dram_read_bytes(), 33577984u);
  EXPECT_DOUBLE_EQ(c.memory().l2_hit_rate_pct(), 98.7);
  EXPECT_EQ(c.memory().nvlink_rx_bytes(), 72000000u);
  EXPECT_DOUBLE_EQ(c.achieved_occupancy_pct(), 97.9);
  EXPECT_DOUBLE_EQ(c.extra_metrics().at("gpu__time_duration.sum"), 5.0);
  EXPECT_FALSE(c.memory().has_dram_write_bytes()) << "not measured stays absent";
}

TEST(CounterMetrics, GroupsAreDisjointAndNamed) {
  const auto core = metric_names(MetricGroup::kCore);
  const auto links = metric_names(MetricGroup::kLinks);
  std::set<std::string> all(core.begin(), core.end());
  for (const auto& m : links) EXPECT_TRUE(all.insert(m).second) << m;
  for (const auto& m : metric_names(MetricGroup::kTensor)) EXPECT_TRUE(all.insert(m).second) << m;
  EXPECT_EQ(base_metric("dram__bytes_read.sum"), "dram__bytes_read");
  EXPECT_EQ(base_metric("sm__warps_active.avg.pct_of_peak_sustained_active"), "sm__warps_active");
  EXPECT_EQ(parse_metric_group("links"), MetricGroup::kLinks);
  EXPECT_EQ(parse_metric_group("tensor"), MetricGroup::kTensor);
  EXPECT_EQ(parse_metric_group("cache"), MetricGroup::kCache);
  EXPECT_THROW(parse_metric_group("everything"), std::invalid_argument);
}

TEST(CounterMetrics, CacheGroupRemeasuresCoreFields) {
  // The cache group measures again, in one pass, fields core also has: merged last, its values replace core's.
  const auto core = metric_names(MetricGroup::kCore);
  const std::set<std::string> in_core(core.begin(), core.end());
  const auto cache = metric_names(MetricGroup::kCache);
  ASSERT_FALSE(cache.empty());
  for (const auto& m : cache) EXPECT_TRUE(in_core.contains(m)) << m;
  KernelCounters c;
  set_counter(c, "lts__t_sectors_aperture_device_op_write_lookup_miss.sum", 7);
  EXPECT_EQ(c.memory().l2_device_write_miss_sectors(), 7u);
}

TEST(LaunchSelector, RegexSkipAndCountAsNcuDoes) {
  LaunchSelector selector("matmul_tiled", 1, 2);
  EXPECT_FALSE(selector.select("_Z12matmul_naivePKfS0_Pfi"));
  EXPECT_FALSE(selector.select("_Z12matmul_tiledPKfS0_Pfi")) << "skipped";
  EXPECT_TRUE(selector.select("_Z12matmul_tiledPKfS0_Pfi"));
  EXPECT_TRUE(selector.select("_Z12matmul_tiledPKfS0_Pfi"));
  EXPECT_FALSE(selector.select("_Z12matmul_tiledPKfS0_Pfi")) << "count reached";
}

TEST(LaunchSelector, MatchesDemangledNamesAndEverythingByDefault) {
  LaunchSelector demangled("^matmul_tiled\\(float const\\*", 0, std::nullopt);
  EXPECT_TRUE(demangled.select("_Z12matmul_tiledPKfS0_Pfi"));
  LaunchSelector all("", 0, std::nullopt);
  for (int i = 0; i < 100; ++i) EXPECT_TRUE(all.select("anything"));
}

TEST(CountersStore, HandsCountersToTheirLaunchInOrder) {
  CountersStore store;
  KernelCounters first;
  first.set_ctas_launched(1);
  KernelCounters second;
  second.set_ctas_launched(2);
  store.put(10, first);
  store.put(10, second);  // a graph launch: two kernels under one correlation id
  store.put(11, first);
  EXPECT_EQ(store.pending(), 3u);
  EXPECT_EQ(store.take(10)->ctas_launched(), 1u);
  EXPECT_EQ(store.take(10)->ctas_launched(), 2u);
  EXPECT_FALSE(store.take(10).has_value());
  EXPECT_FALSE(store.take(99).has_value()) << "an unprofiled launch";
  EXPECT_EQ(store.pending(), 1u);
}

}  // namespace
}  // namespace warpsim::tracer

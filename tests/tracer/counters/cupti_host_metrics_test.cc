// CUPTI's host-side profiler API needs no GPU, only a chip name: check that the counters-mode catalogue is a valid
// GH100 (H100, H200) configuration, how many replay passes it costs, and that the links group must stay separate.
#include <cupti_profiler_host.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "counters/counter_metrics.h"

namespace warpsim::tracer {
namespace {

// Number of passes of a range-profiler configuration of `metrics` on `chip`, or -1 if CUPTI refuses it.
int passes(const char* chip, const std::vector<std::string>& metrics) {
  CUpti_Profiler_Host_Initialize_Params init{};
  init.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
  init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  init.pChipName = chip;
  if (cuptiProfilerHostInitialize(&init) != CUPTI_SUCCESS) return -1;
  std::vector<const char*> names;
  for (const auto& m : metrics) names.push_back(m.c_str());
  CUpti_Profiler_Host_ConfigAddMetrics_Params add{};
  add.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
  add.pHostObject = init.pHostObject;
  add.ppMetricNames = names.data();
  add.numMetrics = names.size();
  int result = -1;
  if (cuptiProfilerHostConfigAddMetrics(&add) == CUPTI_SUCCESS) {
    CUpti_Profiler_Host_GetConfigImageSize_Params size{};
    size.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
    size.pHostObject = init.pHostObject;
    cuptiProfilerHostGetConfigImageSize(&size);
    std::vector<std::uint8_t> image(size.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params get{};
    get.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
    get.pHostObject = init.pHostObject;
    get.configImageSize = image.size();
    get.pConfigImage = image.data();
    CUpti_Profiler_Host_GetNumOfPasses_Params count{};
    count.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE;
    count.configImageSize = image.size();
    count.pConfigImage = image.data();
    if (cuptiProfilerHostGetConfigImage(&get) == CUPTI_SUCCESS && cuptiProfilerHostGetNumOfPasses(&count) == CUPTI_SUCCESS)
      result = static_cast<int>(count.numOfPasses);
  }
  CUpti_Profiler_Host_Deinitialize_Params done{};
  done.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
  done.pHostObject = init.pHostObject;
  cuptiProfilerHostDeinitialize(&done);
  return result;
}

TEST(CuptiHostMetrics, CoreGroupIsAValidGh100ConfigurationOfFivePasses) {
  EXPECT_EQ(passes("GH100", metric_names(MetricGroup::kCore)), 5);
}

TEST(CuptiHostMetrics, TensorGroupIsAValidGh100ConfigurationOfSixPasses) {
  EXPECT_EQ(passes("GH100", metric_names(MetricGroup::kTensor)), 6);
}

TEST(CuptiHostMetrics, CacheGroupIsOneGh100Pass) {
  // One pass or the group loses its point: a second replays the kernel after restoring memory (counter_metrics.cc).
  EXPECT_EQ(passes("GH100", metric_names(MetricGroup::kCache)), 1);
}

TEST(CuptiHostMetrics, LinksGroupIsValidAloneButNotWithCore) {
  EXPECT_EQ(passes("GH100", metric_names(MetricGroup::kLinks)), 1);
  auto both = metric_names(MetricGroup::kCore);
  for (const auto& m : metric_names(MetricGroup::kLinks)) both.push_back(m);
  EXPECT_EQ(passes("GH100", both), -1);
}

}  // namespace
}  // namespace warpsim::tracer

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>

#include "tracer_config.h"

namespace warpsim::tracer {
namespace {

TracerConfig read(const std::map<std::string, std::string>& env, std::uint32_t pid = 1234) {
  return read_tracer_config(
      [&](const char* name) -> const char* {
        const auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
      },
      pid);
}

TEST(TracerConfig, Defaults) {
  const TracerConfig c = read({});
  EXPECT_EQ(c.output_path, "warpsim-1234.wstrace");
  EXPECT_EQ(c.mode, TraceMode::kTimeline);
  EXPECT_EQ(c.capture_range, CaptureRange::kWhole);
  EXPECT_EQ(c.flush_period_ms, 500u);
  EXPECT_FALSE(c.launch_count.has_value());
  EXPECT_EQ(c.traffic_interval_ns, 5000u);
}

TEST(TracerConfig, TrafficModeAndItsSamplingInterval) {
  const TracerConfig c = read({{"WARPSIM_TRACE_MODE", "traffic"}, {"WARPSIM_TRAFFIC_INTERVAL_NS", "2000"}});
  EXPECT_EQ(c.mode, TraceMode::kTraffic);
  EXPECT_EQ(c.traffic_interval_ns, 2000u);
  EXPECT_EQ(capture_mode(c.mode), CAPTURE_MODE_TRAFFIC);
  EXPECT_EQ(capture_mode(TraceMode::kTimeline), CAPTURE_MODE_TIMELINE);
  EXPECT_EQ(capture_mode(TraceMode::kCounters), CAPTURE_MODE_COUNTERS);
  EXPECT_THROW(read({{"WARPSIM_TRAFFIC_INTERVAL_NS", "5us"}}), std::invalid_argument);
  EXPECT_THROW(read({{"WARPSIM_TRAFFIC_INTERVAL_NS", "2000000000"}}), std::invalid_argument);
}

TEST(TracerConfig, ReadsEverySetting) {
  const TracerConfig c = read({{"WARPSIM_TRACE_OUTPUT", "/out/run-%p.wstrace"},
                               {"WARPSIM_TRACE_MODE", "counters"},
                               {"WARPSIM_TRACE_FLUSH_MS", "250"},
                               {"WARPSIM_TRACE_CAPTURE_RANGE", "cudaProfilerApi"},
                               {"WARPSIM_TRACE_KERNELS", "matmul_.*"},
                               {"WARPSIM_TRACE_LAUNCH_SKIP", "10"},
                               {"WARPSIM_TRACE_LAUNCH_COUNT", "5"}});
  EXPECT_EQ(c.output_path, "/out/run-1234.wstrace");
  EXPECT_EQ(c.mode, TraceMode::kCounters);
  EXPECT_EQ(c.flush_period_ms, 250u);
  EXPECT_EQ(c.capture_range, CaptureRange::kProfilerApi);
  EXPECT_EQ(c.kernel_regex, "matmul_.*");
  EXPECT_EQ(c.launch_skip, 10u);
  EXPECT_EQ(c.launch_count, 5u);
}

TEST(TracerConfig, BadSettingsNameTheVariable) {
  for (const auto& [name, value] : std::map<std::string, std::string>{{"WARPSIM_TRACE_MODE", "everything"},
                                                                      {"WARPSIM_TRACE_FLUSH_MS", "0"},
                                                                      {"WARPSIM_TRACE_FLUSH_MS", "fast"},
                                                                      {"WARPSIM_TRACE_CAPTURE_RANGE", "nvtx"},
                                                                      {"WARPSIM_TRACE_KERNELS", "(unclosed"},
                                                                      {"WARPSIM_TRACE_LAUNCH_SKIP", "-3"},
                                                                      {"WARPSIM_TRAFFIC_INTERVAL_NS", "0"}}) {
    try {
      read({{name, value}});
      ADD_FAILURE() << name << "=" << value << " accepted";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find(name), std::string::npos) << error.what();
    }
  }
}

TEST(TracerConfig, ChildProcessesGetTheirOwnFile) {
  EXPECT_EQ(resolve_output_path("/t/app.wstrace", 100, 100), "/t/app.wstrace");
  EXPECT_EQ(resolve_output_path("/t/app.wstrace", 101, 100), "/t/app.101.wstrace");
  EXPECT_EQ(resolve_output_path("/t/app-%p.wstrace", 101, 100), "/t/app-101.wstrace");
  EXPECT_EQ(resolve_output_path("app.wstrace", 7, std::nullopt), "app.wstrace");
}

}  // namespace
}  // namespace warpsim::tracer

#include "tracer_config.h"

#include <charconv>
#include <filesystem>
#include <regex>
#include <stdexcept>

namespace warpsim::tracer {
namespace {

std::uint64_t parse_count(const char* variable, const std::string& text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    throw std::invalid_argument(std::string(variable) + "='" + text + "' is not a non-negative integer");
  return value;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

}  // namespace

std::string resolve_output_path(const std::string& pattern, std::uint32_t pid, std::optional<std::uint32_t> root_pid) {
  const std::string pid_text = std::to_string(pid);
  if (pattern.find("%p") != std::string::npos) return replace_all(pattern, "%p", pid_text);
  if (!root_pid || *root_pid == pid) return pattern;
  const std::filesystem::path path(pattern);
  return (path.parent_path() / (path.stem().string() + "." + pid_text + path.extension().string())).string();
}

CaptureMode capture_mode(TraceMode mode) {
  switch (mode) {
    case TraceMode::kTimeline: return CAPTURE_MODE_TIMELINE;
    case TraceMode::kCounters: return CAPTURE_MODE_COUNTERS;
    case TraceMode::kTraffic: return CAPTURE_MODE_TRAFFIC;
  }
  return CAPTURE_MODE_UNSPECIFIED;
}

TracerConfig read_tracer_config(const std::function<const char*(const char*)>& getenv, std::uint32_t pid) {
  auto get = [&](const char* name) -> std::optional<std::string> {
    const char* value = getenv(name);
    if (value == nullptr || *value == '\0') return std::nullopt;
    return std::string(value);
  };
  TracerConfig config;
  std::optional<std::uint32_t> root_pid;
  if (auto text = get("WARPSIM_TRACE_ROOT_PID"))
    root_pid = static_cast<std::uint32_t>(parse_count("WARPSIM_TRACE_ROOT_PID", *text));
  config.output_path = resolve_output_path(get("WARPSIM_TRACE_OUTPUT").value_or("warpsim-%p.wstrace"), pid, root_pid);
  if (auto mode = get("WARPSIM_TRACE_MODE")) {
    if (*mode == "counters") config.mode = TraceMode::kCounters;
    else if (*mode == "traffic")
      config.mode = TraceMode::kTraffic;
    else if (*mode != "timeline")
      throw std::invalid_argument("WARPSIM_TRACE_MODE='" + *mode + "': use timeline, counters or traffic");
  }
  if (auto group = get("WARPSIM_TRACE_METRICS")) {
    try {
      config.metrics = parse_metric_group(*group);
    } catch (const std::invalid_argument& error) {
      throw std::invalid_argument(std::string("WARPSIM_TRACE_METRICS: ") + error.what());
    }
  }
  if (auto ms = get("WARPSIM_TRACE_FLUSH_MS")) {
    const std::uint64_t value = parse_count("WARPSIM_TRACE_FLUSH_MS", *ms);
    if (value == 0 || value > 60'000)
      throw std::invalid_argument("WARPSIM_TRACE_FLUSH_MS='" + *ms + "': use 1 to 60000 milliseconds");
    config.flush_period_ms = static_cast<std::uint32_t>(value);
  }
  if (auto range = get("WARPSIM_TRACE_CAPTURE_RANGE")) {
    if (*range == "cudaProfilerApi") config.capture_range = CaptureRange::kProfilerApi;
    else if (*range != "none")
      throw std::invalid_argument("WARPSIM_TRACE_CAPTURE_RANGE='" + *range + "': use none or cudaProfilerApi");
  }
  if (auto regex = get("WARPSIM_TRACE_KERNELS")) {
    try {
      (void)std::regex(*regex);
    } catch (const std::regex_error&) {
      throw std::invalid_argument("WARPSIM_TRACE_KERNELS='" + *regex + "' is not a valid regular expression");
    }
    config.kernel_regex = *regex;
  }
  if (auto skip = get("WARPSIM_TRACE_LAUNCH_SKIP")) config.launch_skip = parse_count("WARPSIM_TRACE_LAUNCH_SKIP", *skip);
  if (auto count = get("WARPSIM_TRACE_LAUNCH_COUNT"))
    config.launch_count = parse_count("WARPSIM_TRACE_LAUNCH_COUNT", *count);
  if (auto interval = get("WARPSIM_TRAFFIC_INTERVAL_NS")) {
    const std::uint64_t value = parse_count("WARPSIM_TRAFFIC_INTERVAL_NS", *interval);
    if (value == 0 || value > 1'000'000'000)
      throw std::invalid_argument("WARPSIM_TRAFFIC_INTERVAL_NS='" + *interval + "': use 1 to 1000000000 nanoseconds");
    config.traffic_interval_ns = value;
  }
  return config;
}

}  // namespace warpsim::tracer

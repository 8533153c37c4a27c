#include "outputs/report_data.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/activity_slices.h"
#include "analysis/compare.h"
#include "analysis/kernel_match.h"
#include "analysis/kernel_name.h"
#include "analysis/link_usage.h"
#include "analysis/trace_labels.h"
#include "outputs/compare_json.h"

namespace warpsim::report {
namespace {

using nlohmann::json;

json simulation_info(const TraceHeader& header) {
  if (!header.has_simulation()) return nullptr;
  const SimulationInfo& s = header.simulation();
  json info{{"platform", s.platform()},
            {"model", s.model()},
            {"overrides", std::vector<std::string>(s.overrides().begin(), s.overrides().end())},
            {"source_trace", s.source_trace()},
            {"reuses_recorded_kernel_times", s.reuses_recorded_kernel_times()},
            {"host_time_recorded", s.host_time_recorded()}};
  info["host_scale"] = s.has_host_scale() ? json(s.host_scale()) : json(nullptr);
  return info;
}

json trace_info(const std::string& label, const TraceKernels& trace) {
  const TraceHeader& h = trace.header;
  std::vector<std::string> devices;
  for (const Device& d : h.devices()) devices.push_back(fmt::format("GPU{} {}", d.id(), d.name()));
  std::string command;
  for (const std::string& word : h.command_line()) command += (command.empty() ? "" : " ") + word;
  return {{"label", label},
          {"path", trace.path},
          {"mode", capture_mode_label(h.mode())},
          {"host", h.capture_host()},
          {"command", command},
          {"tool_version", h.tool_version()},
          {"devices", devices},
          {"kernels", trace.kernels},
          {"span_ns", trace.first_ns && trace.last_ns ? *trace.last_ns - *trace.first_ns : 0},
          {"simulation", simulation_info(h)}};
}

std::string dims_text(const std::array<std::uint32_t, 3>& d) { return fmt::format("{},{},{}", d[0], d[1], d[2]); }

std::string bound_kind_label(const SimulatedBound& bound) {
  if (bound.kind() == SimulatedBound::KIND_UNSPECIFIED) return "";
  std::string name = SimulatedBound::Kind_Name(bound.kind());
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  return name;
}

// The kernel whose bound is shown: B's where B was simulated, else A's (a simulated trace alone).
const KernelRecord& bound_source(const KernelRecord& a, const KernelRecord* b) {
  return b && b->bound.kind() != SimulatedBound::KIND_UNSPECIFIED ? *b : a;
}

struct KernelRow {
  StreamKey stream;
  std::size_t index = 0;
  const KernelRecord* a = nullptr;
  const KernelRecord* b = nullptr;
};

json kernel_rows(std::vector<KernelRow> rows, std::size_t max_rows, std::vector<std::string>& warnings) {
  const std::size_t total = rows.size();
  if (rows.size() > max_rows) {
    std::partial_sort(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(max_rows), rows.end(),
                      [](const KernelRow& x, const KernelRow& y) { return x.a->duration_ns() > y.a->duration_ns(); });
    rows.resize(max_rows);
    warnings.push_back(fmt::format("the kernel table and scatter show the {} longest of {} kernels", max_rows, total));
  }
  std::map<std::string, std::string> short_names;  // demangling once per name
  json out = json::array();
  for (const KernelRow& row : rows) {
    const KernelRecord& a = *row.a;
    auto [it, added] = short_names.try_emplace(a.name);
    if (added) it->second = short_kernel_name(a.name);
    const KernelRecord& bounded = bound_source(a, row.b);
    json error = nullptr;
    if (row.b && a.duration_ns() > 0)
      error = (static_cast<double>(row.b->duration_ns()) - static_cast<double>(a.duration_ns())) /
              static_cast<double>(a.duration_ns()) * 100;
    out.push_back({row.stream.device, row.stream.stream, row.index, it->second, dims_text(a.grid), dims_text(a.block),
                   a.duration_ns(), row.b ? json(row.b->duration_ns()) : json(nullptr), error,
                   bound_kind_label(bounded.bound), bounded.bound.limiter()});
  }
  return {{"columns", {"device", "stream", "index", "name", "grid", "block", "a_ns", "b_ns", "error_pct", "bound",
                       "limiter"}},
          {"rows", out},
          {"total", total}};
}

std::vector<KernelRow> rows_of(const TraceKernels& a, const TraceKernels* b) {
  std::vector<KernelRow> rows;
  if (b) {
    for (const KernelPair& pair : match_kernels(a, *b)) rows.push_back({pair.stream, pair.index, pair.a, pair.b});
    return rows;
  }
  for (const auto& [key, kernels] : a.streams) {
    for (std::size_t i = 0; i < kernels.size(); ++i) rows.push_back({key, i, &kernels[i], nullptr});
  }
  return rows;
}

json timeline_of(const TraceKernels& trace, std::size_t max_slices, const std::string& label,
                 std::vector<std::string>& warnings) {
  const TraceActivity activity = read_activity(trace.path, max_slices);
  const std::uint64_t origin = trace.first_ns.value_or(0);
  json tracks = json::array();
  for (const StreamKey& key : activity.tracks) tracks.push_back({key.device, key.stream});
  std::vector<std::uint32_t> track, name;
  std::vector<std::uint8_t> kind;
  std::vector<std::uint64_t> start, duration, bytes;
  for (const ActivitySlice& s : activity.slices) {
    track.push_back(s.track);
    name.push_back(s.label);
    kind.push_back(static_cast<std::uint8_t>(s.kind));
    start.push_back(s.start_ns >= origin ? s.start_ns - origin : 0);
    duration.push_back(s.end_ns - s.start_ns);
    bytes.push_back(s.bytes);
  }
  if (activity.slices.size() < activity.operations)
    warnings.push_back(fmt::format("the timeline of {} shows its first {} of {} operations", label,
                                   activity.slices.size(), activity.operations));
  return {{"tracks", tracks}, {"labels", activity.labels}, {"track", track}, {"label", name}, {"kind", kind},
          {"start_ns", start}, {"duration_ns", duration}, {"bytes", bytes}, {"operations", activity.operations}};
}

json links_of(const TraceKernels& trace, std::size_t bins) {
  if (!trace.first_ns || !trace.last_ns) return {{"bin_ns", 0}, {"series", json::array()}};
  const LinkUsage usage = link_usage(trace.path, *trace.first_ns, *trace.last_ns, bins);
  json series = json::array();
  for (const LinkSeries& s : usage.links) {
    series.push_back({{"name", s.name},
                      {"capacity_gb_per_s", s.capacity_gb_per_s ? json(*s.capacity_gb_per_s) : json(nullptr)},
                      {"gb_per_s", s.gb_per_s}});
  }
  return {{"bin_ns", usage.bin_ns}, {"series", series}};
}

}  // namespace

ReportData report_data(const ReportInputs& inputs) {
  ReportData data;
  std::vector<TraceKernels> traces;
  traces.push_back(read_trace_kernels(inputs.a));
  if (inputs.b) traces.push_back(read_trace_kernels(*inputs.b));
  const TraceKernels* b = inputs.b ? &traces[1] : nullptr;
  json comparison = nullptr;
  if (b) {
    const Comparison c = compare_kernels(traces[0], *b);
    comparison = comparison_to_json(c);
    comparison.erase("kernels");  // the page's own rows carry them, with shapes and bounds
    data.warnings.insert(data.warnings.end(), c.warnings.begin(), c.warnings.end());
  } else if (!traces[0].truncation_warning.empty()) {
    data.warnings.push_back(traces[0].truncation_warning);
  }
  json infos = json::array(), timelines = json::array(), links = json::array();
  for (std::size_t i = 0; i < traces.size(); ++i) {
    const std::string label = i == 0 ? "A" : "B";
    infos.push_back(trace_info(label, traces[i]));
    timelines.push_back(timeline_of(traces[i], inputs.max_slices, label, data.warnings));
    links.push_back(links_of(traces[i], inputs.link_bins));
  }
  data.page = {{"traces", infos},
               {"comparison", comparison},
               {"kernels", kernel_rows(rows_of(traces[0], b), inputs.max_kernels, data.warnings)},
               {"timelines", timelines},
               {"links", links}};
  data.page["warnings"] = data.warnings;
  return data;
}

}  // namespace warpsim::report

#include "outputs/summary_json.h"

#include "analysis/demangle.h"
#include "analysis/trace_labels.h"
#include "outputs/proto_json.h"

namespace warpsim::report {
namespace {

nlohmann::json copies_json(const TraceSummary& summary, bool bytes) {
  nlohmann::json object = nlohmann::json::object();
  for (const auto kind : {Memcpy::HTOD, Memcpy::DTOH, Memcpy::DTOD, Memcpy::PTOP, Memcpy::HTOH}) {
    const CopyTotals& totals = summary.copies.at(static_cast<std::size_t>(kind));
    object[copy_kind_label(kind)] = bytes ? totals.bytes : totals.count;
  }
  return object;
}

nlohmann::json top_kernels_json(const TraceSummary& summary) {
  nlohmann::json array = nlohmann::json::array();
  for (const KernelTotals& kernel : summary.top_kernels)
    array.push_back({{"name", kernel.name},
                     {"demangled", demangle(kernel.name)},
                     {"launches", kernel.launches},
                     {"total_ns", kernel.total_ns},
                     {"mean_ns", kernel.total_ns / kernel.launches}});
  return array;
}

nlohmann::json list_json(const auto& messages) {
  nlohmann::json array = nlohmann::json::array();
  for (const auto& message : messages) array.push_back(proto_to_json(message));
  return array;
}

}  // namespace

nlohmann::json summary_to_json(const TraceSummary& summary) {
  const TraceHeader& header = summary.header;
  nlohmann::json object = {
      {"file", summary.file},
      {"format_version", summary.format_version},
      {"record_checksums", summary.record_checksums},
      {"tool_version", header.tool_version()},
      {"capture_host", header.capture_host()},
      {"command_line", std::vector<std::string>(header.command_line().begin(), header.command_line().end())},
      {"start_time_unix_ns", header.start_time_unix_ns()},
      {"mode", capture_mode_label(header.mode())},
      {"devices", list_json(header.devices())},
      {"links", list_json(header.links())},
      {"events", summary.events},
      {"kernels", summary.kernels},
      {"kernels_with_counters", summary.kernels_with_counters},
      {"kernel_time_ns", summary.kernel_time_ns},
      {"kernel_streams", summary.kernel_streams},
      {"copies", copies_json(summary, false)},
      {"copy_bytes", copies_json(summary, true)},
      {"memsets", summary.memsets},
      {"synchronizations", summary.synchronizations},
      {"markers", summary.markers},
      {"api_calls", summary.api_calls},
      {"host_threads", summary.host_threads},
      {"streams", summary.streams},
      {"span_ns", summary.first_ns ? *summary.last_ns - *summary.first_ns : 0},
      {"top_kernels", top_kernels_json(summary)},
      {"truncated", !summary.truncation_warning.empty()},
  };
  if (header.has_simulation()) object["simulation"] = proto_to_json(header.simulation());
  return object;
}

}  // namespace warpsim::report

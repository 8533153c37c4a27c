#include "outputs/timeline_json.h"

#include <optional>

#include "outputs/printable.h"

namespace warpsim::report {
namespace {

nlohmann::json metadata(const char* name, int process, std::optional<int> thread, nlohmann::json args) {
  nlohmann::json event = {{"ph", "M"}, {"name", name}, {"pid", process}, {"args", std::move(args)}};
  if (thread) event["tid"] = *thread;
  return event;
}

double microseconds(std::uint64_t ns) { return static_cast<double>(ns) / 1000.0; }

}  // namespace

JsonTimelineSink::JsonTimelineSink(std::ostream& out) : out_(out) { out_ << R"({"traceEvents": [)"; }

void JsonTimelineSink::write(const nlohmann::json& event) {
  out_ << (first_ ? "\n" : ",\n") << json_text(event);
  first_ = false;
}

void JsonTimelineSink::process(int pid, const std::string& name) {
  write(metadata("process_name", pid, std::nullopt, {{"name", name}}));
  write(metadata("process_sort_index", pid, std::nullopt, {{"sort_index", pid}}));
}

void JsonTimelineSink::thread(int pid, int tid, const std::string& name) {
  write(metadata("thread_name", pid, tid, {{"name", name}}));
  write(metadata("thread_sort_index", pid, tid, {{"sort_index", tid}}));
}

void JsonTimelineSink::slice(const TimelineSlice& slice) {
  const SliceText& text = *slice.text;
  nlohmann::json event = {{"name", text.name},
                          {"cat", text.category},
                          {"pid", slice.pid},
                          {"tid", slice.tid},
                          {"ts", microseconds(slice.start_ns)},
                          {"args", text.args}};
  if (text.instant) {
    event["ph"] = "i";
    event["s"] = "t";
  } else {
    event["ph"] = "X";
    event["dur"] = microseconds(slice.duration_ns);
  }
  write(event);
}

// Chrome trace-event flows: "s" binds to the slice enclosing its time, "f" with "bp":"e" to the slice enclosing its
// time; the exporter puts both times strictly inside their slice so that no neighbour can claim them.
void JsonTimelineSink::flow(const FlowEnd& end) {
  nlohmann::json event = {{"ph", end.start ? "s" : "f"}, {"id", end.id},   {"cat", "flow"},
                          {"name", "issue"},              {"pid", end.pid}, {"tid", end.tid},
                          {"ts", microseconds(end.at_ns)}};
  if (!end.start) event["bp"] = "e";
  write(event);
}

void JsonTimelineSink::finish() { out_ << "\n]}\n"; }

}  // namespace warpsim::report

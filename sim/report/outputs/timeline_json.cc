#include "outputs/timeline_json.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <cmath>
#include <iterator>

#include "outputs/printable.h"

namespace warpsim::report {
namespace {

constexpr std::size_t kFlushBytes = 1 << 16;
// The formats below are compiled (FMT_COMPILE), not parsed at each call: a timeline formats millions of slices.

// Chrome trace-event times are microseconds; ns precision is kept exactly as three decimals.
void append_microseconds(std::string& out, std::uint64_t ns) {
  fmt::format_to(std::back_inserter(out), FMT_COMPILE("{}.{:03}"), ns / 1000, ns % 1000);
}

void append_value(std::string& out, const SliceArgument& argument) {
  switch (argument.kind) {
    case SliceArgument::Kind::kNumber:
      fmt::format_to(std::back_inserter(out), FMT_COMPILE("{}"), argument.number);
      break;
    case SliceArgument::Kind::kReal:
      if (std::isfinite(argument.real))
        fmt::format_to(std::back_inserter(out), FMT_COMPILE("{}"), argument.real);
      else
        out += "null";  // as nlohmann::json writes what JSON cannot say
      break;
    case SliceArgument::Kind::kText: append_json_string(out, argument.text); break;
  }
}

// An object of the arguments (their keys are names in the code: nothing to escape); a group's run of arguments as
// one nested object.
void append_arguments(std::string& out, const std::vector<SliceArgument>& args) {
  out += '{';
  for (std::size_t i = 0; i < args.size(); ++i) {
    const char* group = args[i].group;
    const char* previous = i > 0 ? args[i - 1].group : nullptr;
    if (previous && previous != group) out += '}';
    if (i > 0) out += ',';
    if (group && group != previous) fmt::format_to(std::back_inserter(out), FMT_COMPILE(R"("{}":{{)"), group);
    fmt::format_to(std::back_inserter(out), FMT_COMPILE(R"("{}":)"), args[i].key);
    append_value(out, args[i]);
  }
  if (!args.empty() && args.back().group) out += '}';
  out += '}';
}

}  // namespace

JsonTimelineSink::JsonTimelineSink(std::ostream& out) : out_(out) { buffer_ = R"({"traceEvents": [)"; }

std::string& JsonTimelineSink::begin_event() {
  buffer_ += first_ ? "\n{" : ",\n{";
  first_ = false;
  return buffer_;
}

void JsonTimelineSink::flush() {
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
}

void JsonTimelineSink::metadata(const char* name, int pid, const int* tid, const std::string& args) {
  std::string& out = begin_event();
  fmt::format_to(std::back_inserter(out), R"("ph":"M","name":"{}","pid":{})", name, pid);
  if (tid) fmt::format_to(std::back_inserter(out), R"(,"tid":{})", *tid);
  out += R"(,"args":)";
  out += args;
  out += '}';
}

void JsonTimelineSink::process(int pid, const std::string& name) {
  std::string args = R"({"name":)";
  append_json_string(args, name);
  metadata("process_name", pid, nullptr, args + "}");
  metadata("process_sort_index", pid, nullptr, fmt::format(R"({{"sort_index":{}}})", pid));
}

void JsonTimelineSink::thread(int pid, int tid, const std::string& name) {
  std::string args = R"({"name":)";
  append_json_string(args, name);
  metadata("thread_name", pid, &tid, args + "}");
  metadata("thread_sort_index", pid, &tid, fmt::format(R"({{"sort_index":{}}})", tid));
}

void JsonTimelineSink::slice(const TimelineSlice& slice) {
  const SliceText& text = *slice.text;
  std::string& out = begin_event();
  out += text.instant ? R"("ph":"i","s":"t")" : R"("ph":"X")";
  out += R"(,"name":)";
  append_json_string(out, text.name);
  fmt::format_to(std::back_inserter(out), FMT_COMPILE(R"(,"cat":"{}","pid":{},"tid":{},"ts":)"), text.category,
                 slice.pid, slice.tid);
  append_microseconds(out, slice.start_ns);
  if (!text.instant) {
    out += R"(,"dur":)";
    append_microseconds(out, slice.duration_ns);
  }
  out += R"(,"args":)";
  append_arguments(out, text.args);
  out += '}';
  if (buffer_.size() >= kFlushBytes) flush();
}

// Chrome trace-event flows: "s" binds to the slice enclosing its time, "f" with "bp":"e" to the slice enclosing its
// time; the exporter puts both times strictly inside their slice so that no neighbour can claim them.
void JsonTimelineSink::flow(const FlowEnd& end) {
  std::string& out = begin_event();
  fmt::format_to(std::back_inserter(out),
                 FMT_COMPILE(R"("ph":"{}",{}"id":{},"cat":"flow","name":"issue","pid":{},"tid":{},"ts":)"),
                 end.start ? "s" : "f", end.start ? "" : R"("bp":"e",)", end.id, end.pid, end.tid);
  append_microseconds(out, end.at_ns);
  out += '}';
  if (buffer_.size() >= kFlushBytes) flush();
}

void JsonTimelineSink::finish() {
  buffer_ += "\n]}\n";
  flush();
}

}  // namespace warpsim::report

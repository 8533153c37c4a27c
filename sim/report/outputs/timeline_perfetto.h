#pragma once
/// @brief The timeline in Perfetto's own protobuf trace format (proto/perfetto_trace.proto, a subset of Perfetto's
/// TracePacket with its field numbers), for ui.perfetto.dev and trace_processor: smaller than the JSON and faster to
/// load, for traces of millions of operations.
///
/// Each process is a process track, each of its threads a child track named as in the JSON. A slice is a
/// TYPE_SLICE_BEGIN event with its name, category and arguments (debug annotations) and a TYPE_SLICE_END event; an
/// instant is TYPE_INSTANT. Names, categories, argument names and string values are interned: sent once, in the
/// packet that first uses them, then referred to by id. Begin and end events must nest per track in file order, so
/// the sink keeps every slice until finish() and writes all events sorted by time: at one instant, ends before
/// begins, an outer slice's begin before an inner one's and its end after it, a zero-length slice's end after its
/// begin. A flow's start and finish become flow ids on the slices enclosing them (flow_ids on the API call,
/// terminating_flow_ids on the GPU operation). Memory: some 40 bytes per slice and 16 per argument until finish().

#include <cstdint>
#include <ostream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "outputs/timeline_sink.h"

namespace warpsim::report {

/// Strings with the ids a trace sequence refers to them by (1, 2, ...), and which of them the file has defined.
class InternedStrings {
 public:
  std::uint64_t id(const std::string& text);
  const std::string& text(std::uint64_t id) const { return texts_[id - 1]; }
  /// True the first time it is asked for `id`: the packet at hand must define it.
  bool needs_definition(std::uint64_t id);

 private:
  std::unordered_map<std::string, std::uint64_t> ids_;
  std::vector<std::string> texts_;
  std::vector<bool> defined_;
};

class PerfettoTimelineSink : public TimelineSink {
 public:
  explicit PerfettoTimelineSink(std::ostream& out);
  void process(int pid, const std::string& name) override;
  void thread(int pid, int tid, const std::string& name) override;
  void slice(const TimelineSlice& slice) override;
  void flow(const FlowEnd& end) override;
  void finish() override;

 private:
  // Kept small: a timeline of millions of slices waits here for finish().
  struct Argument {
    SliceArgument::Kind kind = SliceArgument::Kind::kNumber;
    std::uint32_t name = 0;  ///< interned
    std::uint64_t bits = 0;  ///< the value; kText: its interned id, kReal: its bits
  };
  struct Kept {
    std::uint64_t track = 0;
    std::uint64_t start_ns = 0;
    std::uint64_t duration_ns = 0;
    std::uint32_t name = 0, category = 0;  ///< interned
    std::uint32_t first_argument = 0;      ///< into arguments_
    std::uint16_t argument_count = 0;
    bool instant = false;
  };
  struct FlowMark {
    std::size_t slice = 0;
    std::uint64_t id = 0;
    bool leaves = true;  ///< flow_ids (an arrow leaves the slice), else terminating_flow_ids
    auto key() const { return std::tie(slice, leaves, id); }
  };

  void write_packet(const std::string& bytes);
  void keep_arguments(const std::vector<SliceArgument>& args, Kept& slice);
  void attach_flows();
  void write_begin(std::uint64_t ns, const Kept& slice);
  void write_end(std::uint64_t ns, const Kept& slice);

  std::ostream& out_;
  bool first_packet_ = true;
  InternedStrings names_, categories_, argument_names_, strings_;
  std::vector<Kept> slices_;
  std::vector<Argument> arguments_;
  std::vector<FlowEnd> flows_;
  std::vector<FlowMark> flow_marks_;  ///< by slice, once finish() attached them
};

}  // namespace warpsim::report

#include "outputs/timeline_perfetto.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/wire_format_lite.h>

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <tuple>
#include <utility>

#include "perfetto_trace.pb.h"

namespace warpsim::report {
namespace {

namespace pf = warpsim::perfetto;
using google::protobuf::internal::WireFormatLite;

constexpr std::uint32_t kSequence = 1;  // one writer: every packet on one sequence
constexpr std::uint32_t kIncrementalStateCleared = 1;
constexpr std::uint32_t kNeedsIncrementalState = 2;

std::uint64_t process_uuid(int pid) { return static_cast<std::uint64_t>(pid) << 32; }
std::uint64_t thread_uuid(int pid, int tid) { return process_uuid(pid) | static_cast<std::uint32_t>(tid); }

// One event in the file's order: at `ns`, ends (rank 0) before begins and instants (1) before the ends of zero-length
// slices (2); among begins the longer (outer) first, among ends the later-begun (inner) first.
struct Mark {
  std::uint64_t ns = 0;
  int rank = 0;
  std::uint64_t tie = 0;
  std::size_t slice = 0;
  bool end = false;
  auto key() const { return std::tie(ns, rank, tie, slice); }
};

std::vector<Mark> marks_in_file_order(const std::vector<std::uint64_t>& starts,
                                      const std::vector<std::uint64_t>& durations, const std::vector<bool>& instants) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  std::vector<Mark> marks;
  marks.reserve(2 * starts.size());
  for (std::size_t i = 0; i < starts.size(); ++i) {
    marks.push_back({starts[i], 1, kMax - durations[i], i, false});
    if (!instants[i]) marks.push_back({starts[i] + durations[i], durations[i] == 0 ? 2 : 0, kMax - starts[i], i, true});
  }
  std::sort(marks.begin(), marks.end(), [](const Mark& a, const Mark& b) { return a.key() < b.key(); });
  return marks;
}

}  // namespace

std::uint64_t InternedStrings::id(const std::string& text) {
  const auto [it, added] = ids_.try_emplace(text, texts_.size() + 1);
  if (added) {
    texts_.push_back(text);
    defined_.push_back(false);
  }
  return it->second;
}

bool InternedStrings::needs_definition(std::uint64_t id) {
  if (defined_[id - 1]) return false;
  defined_[id - 1] = true;
  return true;
}

PerfettoTimelineSink::PerfettoTimelineSink(std::ostream& out) : out_(out) {}

// The file is a Trace message: each packet is its field 1, length-delimited.
void PerfettoTimelineSink::write_packet(const std::string& bytes) {
  google::protobuf::io::OstreamOutputStream stream(&out_);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.WriteTag(WireFormatLite::MakeTag(1, WireFormatLite::WIRETYPE_LENGTH_DELIMITED));
  coded.WriteVarint32(static_cast<std::uint32_t>(bytes.size()));
  coded.WriteRaw(bytes.data(), static_cast<int>(bytes.size()));
}

void PerfettoTimelineSink::process(int pid, const std::string& name) {
  pf::TracePacket packet;
  packet.set_trusted_packet_sequence_id(kSequence);
  if (first_packet_) packet.set_sequence_flags(kIncrementalStateCleared);
  first_packet_ = false;
  pf::TrackDescriptor& track = *packet.mutable_track_descriptor();
  track.set_uuid(process_uuid(pid));
  track.mutable_process()->set_pid(pid);
  track.mutable_process()->set_process_name(name);
  write_packet(packet.SerializeAsString());
}

void PerfettoTimelineSink::thread(int pid, int tid, const std::string& name) {
  pf::TracePacket packet;
  packet.set_trusted_packet_sequence_id(kSequence);
  pf::TrackDescriptor& track = *packet.mutable_track_descriptor();
  track.set_uuid(thread_uuid(pid, tid));
  track.set_parent_uuid(process_uuid(pid));
  track.set_name(name);
  write_packet(packet.SerializeAsString());
}

// A grouped argument is named "group.key" ("counters.dram_bytes"): Perfetto's argument sets are flat.
void PerfettoTimelineSink::keep_arguments(const std::vector<SliceArgument>& args, Kept& slice) {
  slice.first_argument = static_cast<std::uint32_t>(arguments_.size());
  for (const SliceArgument& argument : args) {
    Argument a;
    a.name = static_cast<std::uint32_t>(
        argument_names_.id(argument.group ? fmt::format("{}.{}", argument.group, argument.key) : argument.key));
    a.kind = argument.kind;
    switch (argument.kind) {
      case SliceArgument::Kind::kNumber: a.bits = argument.number; break;
      case SliceArgument::Kind::kReal: a.bits = std::bit_cast<std::uint64_t>(argument.real); break;
      case SliceArgument::Kind::kText: a.bits = strings_.id(argument.text); break;
    }
    arguments_.push_back(a);
    ++slice.argument_count;
  }
}

void PerfettoTimelineSink::slice(const TimelineSlice& slice) {
  const SliceText& text = *slice.text;
  Kept kept;
  kept.track = thread_uuid(slice.pid, slice.tid);
  kept.start_ns = slice.start_ns;
  kept.duration_ns = text.instant ? 0 : slice.duration_ns;
  kept.name = static_cast<std::uint32_t>(names_.id(text.name));
  kept.category = static_cast<std::uint32_t>(categories_.id(text.category));
  kept.instant = text.instant;
  keep_arguments(text.args, kept);
  slices_.push_back(kept);
}

void PerfettoTimelineSink::flow(const FlowEnd& end) { flows_.push_back(end); }

// Each flow end goes on the innermost slice of its track that encloses its time.
void PerfettoTimelineSink::attach_flows() {
  if (flows_.empty()) return;
  std::vector<std::size_t> order(slices_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto key = [&](std::size_t i) { return std::make_pair(slices_[i].track, slices_[i].start_ns); };
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
  for (const FlowEnd& end : flows_) {
    const auto at = std::make_pair(thread_uuid(end.pid, end.tid), end.at_ns);
    // The last slice of the track starting at or before the flow's time, then back to the first enclosing it.
    auto it = std::upper_bound(order.begin(), order.end(), at, [&](const auto& k, std::size_t i) { return k < key(i); });
    for (int steps = 0; it != order.begin() && steps < 64; ++steps) {
      const std::size_t i = *--it;
      const Kept& s = slices_[i];
      if (s.track != at.first) break;
      if (s.instant || s.start_ns + s.duration_ns < end.at_ns) continue;
      flow_marks_.push_back({i, end.id, end.start});
      break;
    }
  }
  flows_ = {};
  std::sort(flow_marks_.begin(), flow_marks_.end(),
            [](const FlowMark& a, const FlowMark& b) { return a.key() < b.key(); });
}

void PerfettoTimelineSink::write_begin(std::uint64_t ns, const Kept& s) {
  pf::TracePacket packet;
  packet.set_timestamp(ns);
  packet.set_trusted_packet_sequence_id(kSequence);
  packet.set_sequence_flags(first_packet_ ? kIncrementalStateCleared | kNeedsIncrementalState : kNeedsIncrementalState);
  first_packet_ = false;
  pf::InternedData& interned = *packet.mutable_interned_data();
  pf::TrackEvent& event = *packet.mutable_track_event();
  event.set_type(s.instant ? pf::TrackEvent::TYPE_INSTANT : pf::TrackEvent::TYPE_SLICE_BEGIN);
  event.set_track_uuid(s.track);
  event.set_name_iid(s.name);
  if (names_.needs_definition(s.name)) {
    pf::EventName& name = *interned.add_event_names();
    name.set_iid(s.name);
    name.set_name(names_.text(s.name));
  }
  event.add_category_iids(s.category);
  if (categories_.needs_definition(s.category)) {
    pf::EventCategory& category = *interned.add_event_categories();
    category.set_iid(s.category);
    category.set_name(categories_.text(s.category));
  }
  for (std::uint32_t k = 0; k < s.argument_count; ++k) {
    const Argument& a = arguments_[s.first_argument + k];
    pf::DebugAnnotation& annotation = *event.add_debug_annotations();
    annotation.set_name_iid(a.name);
    if (argument_names_.needs_definition(a.name)) {
      pf::DebugAnnotationName& name = *interned.add_debug_annotation_names();
      name.set_iid(a.name);
      name.set_name(argument_names_.text(a.name));
    }
    switch (a.kind) {
      case SliceArgument::Kind::kNumber: annotation.set_uint_value(a.bits); break;
      case SliceArgument::Kind::kReal: annotation.set_double_value(std::bit_cast<double>(a.bits)); break;
      case SliceArgument::Kind::kText:
        annotation.set_string_value_iid(a.bits);
        if (strings_.needs_definition(a.bits)) {
          pf::InternedString& value = *interned.add_debug_annotation_string_values();
          value.set_iid(a.bits);
          value.set_str(strings_.text(a.bits));
        }
        break;
    }
  }
  const std::size_t slice = static_cast<std::size_t>(&s - slices_.data());
  auto flow = std::lower_bound(flow_marks_.begin(), flow_marks_.end(), slice,
                               [](const FlowMark& m, std::size_t i) { return m.slice < i; });
  for (; flow != flow_marks_.end() && flow->slice == slice; ++flow) {
    if (flow->leaves)
      event.add_flow_ids(flow->id);
    else
      event.add_terminating_flow_ids(flow->id);
  }
  if (interned.ByteSizeLong() == 0) packet.clear_interned_data();
  write_packet(packet.SerializeAsString());
}

void PerfettoTimelineSink::write_end(std::uint64_t ns, const Kept& s) {
  pf::TracePacket packet;
  packet.set_timestamp(ns);
  packet.set_trusted_packet_sequence_id(kSequence);
  pf::TrackEvent& event = *packet.mutable_track_event();
  event.set_type(pf::TrackEvent::TYPE_SLICE_END);
  event.set_track_uuid(s.track);
  write_packet(packet.SerializeAsString());
}

void PerfettoTimelineSink::finish() {
  attach_flows();
  std::vector<std::uint64_t> starts, durations;
  std::vector<bool> instants;
  for (const Kept& s : slices_) {
    starts.push_back(s.start_ns);
    durations.push_back(s.duration_ns);
    instants.push_back(s.instant);
  }
  for (const Mark& mark : marks_in_file_order(starts, durations, instants)) {
    const Kept& s = slices_[mark.slice];
    if (mark.end) {
      write_end(mark.ns, s);
    } else {
      write_begin(mark.ns, s);
    }
  }
  slices_ = {};
  arguments_ = {};
  flow_marks_ = {};
  out_.flush();
}

}  // namespace warpsim::report

#include "sink/marker_pairs.h"

#include <algorithm>

namespace warpsim::tracer {
namespace {

Event marker_event(const MarkerActivity& start, std::optional<std::uint64_t> end_ns) {
  Event event;
  Marker* m = event.mutable_marker();
  m->set_name(start.name);
  if (!start.domain.empty()) m->set_domain(start.domain);
  m->set_start_ns(start.timestamp);
  if (end_ns) m->set_end_ns(*end_ns);
  if (start.thread_id) m->set_thread_id(*start.thread_id);
  return event;
}

}  // namespace

std::optional<Event> MarkerPairs::add(const MarkerActivity& marker) {
  switch (marker.phase) {
    case MarkerActivity::Phase::kInstant:
      return marker_event(marker, std::nullopt);
    case MarkerActivity::Phase::kStart:
      open_[marker.id] = marker;
      return std::nullopt;
    case MarkerActivity::Phase::kEnd:
      break;
  }
  const auto it = open_.find(marker.id);
  if (it == open_.end()) return std::nullopt;  // its start came before tracing began
  // Clocks of different threads can disagree by a few ns: never write a range that ends before it starts.
  Event event = marker_event(it->second, std::max(marker.timestamp, it->second.timestamp));
  open_.erase(it);
  return event;
}

std::vector<Event> MarkerPairs::drain_open() {
  std::vector<Event> events;
  for (const auto& [id, start] : open_) events.push_back(marker_event(start, std::nullopt));
  open_.clear();
  return events;
}

}  // namespace warpsim::tracer

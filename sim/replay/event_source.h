#pragma once
// The events a simulation reads, in the source's order, as many times as it asks: a trace file is read again on each
// pass (memory bounded by a record, not the trace), a trace in memory (tests, tools) is walked.
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "trace.pb.h"

namespace warpsim::replay {

/// One pass over a source's events, in its order.
class EventCursor {
 public:
  virtual ~EventCursor() = default;
  /// The next event into `event`; false after the last.
  virtual bool next(Event& event) = 0;
};

class EventSource {
 public:
  EventSource(std::string path, TraceHeader header) : path_(std::move(path)), header_(std::move(header)) {}
  virtual ~EventSource() = default;
  const std::string& path() const { return path_; }
  const TraceHeader& header() const { return header_; }
  /// A new pass over the events.
  virtual std::unique_ptr<EventCursor> open() = 0;
  /// One pass: calls `visit` with each event in the source's order; `visit` may change or take what it is given.
  void for_each(const std::function<void(Event&)>& visit);

 private:
  std::string path_;
  TraceHeader header_;
};

/// A .wstrace file. Opening reads its header; a truncated trace is warned about once, on stderr, at the end of the
/// first pass.
class TraceFileSource : public EventSource {
 public:
  explicit TraceFileSource(const std::string& path);
  std::unique_ptr<EventCursor> open() override;

 private:
  bool warned_ = false;
};

/// Events held in memory (not copied: they must outlive the source).
class EventsInMemory : public EventSource {
 public:
  EventsInMemory(std::string path, TraceHeader header, const std::vector<Event>& events)
      : EventSource(std::move(path), std::move(header)), events_(events) {}
  std::unique_ptr<EventCursor> open() override;

 private:
  const std::vector<Event>& events_;
};

}  // namespace warpsim::replay

#include "event_source.h"

#include <iostream>

#include "trace_read_ahead.h"

namespace warpsim::replay {
namespace {

// Parses on a thread of its own (TraceReadAhead), so that a pass's work on its events and the parsing share two cores.
class FileCursor : public EventCursor {
 public:
  FileCursor(const std::string& path, bool& warned) : events_(path), warned_(warned) {}
  bool next(Event& event) override {
    if (events_.next(event)) return true;
    const TraceReader& reader = events_.finished_reader();
    if (reader.truncation() && !warned_) std::cerr << "warning: " << reader.truncation_warning() << '\n';
    warned_ = true;
    return false;
  }

 private:
  TraceReadAhead events_;
  bool& warned_;
};

class MemoryCursor : public EventCursor {
 public:
  explicit MemoryCursor(const std::vector<Event>& events) : events_(events) {}
  bool next(Event& event) override {
    if (next_ == events_.size()) return false;
    event = events_[next_++];
    return true;
  }

 private:
  const std::vector<Event>& events_;
  std::size_t next_ = 0;
};

}  // namespace

void EventSource::for_each(const std::function<void(Event&)>& visit) {
  const std::unique_ptr<EventCursor> cursor = open();
  Event event;
  while (cursor->next(event)) visit(event);
}

TraceFileSource::TraceFileSource(const std::string& path) : EventSource(path, TraceReader(path).header()) {}

std::unique_ptr<EventCursor> TraceFileSource::open() { return std::make_unique<FileCursor>(path(), warned_); }

std::unique_ptr<EventCursor> EventsInMemory::open() { return std::make_unique<MemoryCursor>(events_); }

}  // namespace warpsim::replay

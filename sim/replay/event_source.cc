#include "event_source.h"

#include <iostream>

#include "trace_reader.h"

namespace warpsim::replay {

TraceFileSource::TraceFileSource(const std::string& path) : EventSource(path, TraceReader(path).header()) {}

void TraceFileSource::for_each(const std::function<void(Event&)>& visit) {
  TraceReader reader(path());
  Event event;
  while (reader.next(event)) visit(event);
  if (reader.truncation() && !warned_) std::cerr << "warning: " << reader.truncation_warning() << '\n';
  warned_ = true;
}

void EventsInMemory::for_each(const std::function<void(Event&)>& visit) {
  for (const Event& event : events_) {
    Event copy = event;
    visit(copy);
  }
}

}  // namespace warpsim::replay

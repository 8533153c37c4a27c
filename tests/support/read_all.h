#pragma once
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "trace_reader.h"

namespace warpsim::testing {

/// Everything a reader returns from trace bytes held in memory.
struct ReadResult {
  TraceHeader header;
  std::vector<Event> events;
  std::optional<Truncation> truncation;
};

inline TraceReader memory_reader(const std::string& bytes, const std::string& name = "memory.wstrace") {
  return TraceReader(std::make_unique<std::istringstream>(bytes), name, bytes.size());
}

/// Reads all events; throws TraceError like the reader.
inline ReadResult read_all(const std::string& bytes) {
  TraceReader reader = memory_reader(bytes);
  ReadResult result{reader.header(), {}, std::nullopt};
  Event event;
  while (reader.next(event)) result.events.push_back(event);
  result.truncation = reader.truncation();
  return result;
}

}  // namespace warpsim::testing

#include "trace_read_ahead.h"

namespace warpsim {

TraceReadAhead::TraceReadAhead(const std::filesystem::path& path)
    : reader_(path), ahead_([this](Event& event) { return reader_.next(event); }) {}

bool TraceReadAhead::next(Event& event) {
  Event* read = ahead_.next();
  if (!read) return false;
  event.Swap(read);
  return true;
}

}  // namespace warpsim

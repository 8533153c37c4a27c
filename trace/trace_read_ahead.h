#pragma once
/// @brief A trace file's events, parsed on a thread of their own a bounded number ahead (ReadAhead): a pass that
/// formats or indexes its events and the parsing share two cores. Same events, same errors as TraceReader.

#include <filesystem>

#include "read_ahead.h"
#include "trace.pb.h"
#include "trace_reader.h"

namespace warpsim {

class TraceReadAhead {
 public:
  /// Opens `path` and reads its header here (its errors are thrown here), then starts parsing the events.
  explicit TraceReadAhead(const std::filesystem::path& path);
  const TraceHeader& header() const { return reader_.header(); }
  /// The next event into `event` (the last one given goes back to the parsing thread, which frees it); false after
  /// the last. Rethrows the reader's TraceError where it happened in the order.
  bool next(Event& event);
  /// The reader, once next() has returned false (its thread has ended): truncation(), truncation_warning().
  const TraceReader& finished_reader() const { return reader_; }

 private:
  TraceReader reader_;
  ReadAhead<Event> ahead_;  // last: its thread starts reading once the reader exists
};

}  // namespace warpsim

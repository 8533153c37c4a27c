#pragma once
/// @brief The Chrome/Perfetto trace-event JSON of a timeline ({"traceEvents": [...]}, for ui.perfetto.dev and
/// chrome://tracing), written as the exporter hands it over: process and thread names with their sort order
/// ("ph":"M"), complete slices ("ph":"X", ts and dur in microseconds with ns precision), instants and flow events
/// ("s", and "f" bound to the enclosing slice). Events are formatted straight into a buffer (a slice per kernel,
/// copy and API call: a million-operation trace writes millions), times as exact decimal microseconds.

#include <ostream>
#include <string>

#include "outputs/timeline_sink.h"

namespace warpsim::report {

class JsonTimelineSink : public TimelineSink {
 public:
  explicit JsonTimelineSink(std::ostream& out);
  void process(int pid, const std::string& name) override;
  void thread(int pid, int tid, const std::string& name) override;
  void slice(const TimelineSlice& slice) override;
  void flow(const FlowEnd& end) override;
  void finish() override;

 private:
  // Starts the next event (the separator and "{"); the caller appends its members and "}".
  std::string& begin_event();
  void metadata(const char* name, int pid, const int* tid, const std::string& args);
  void flush();

  std::ostream& out_;
  std::string buffer_;
  bool first_ = true;
};

}  // namespace warpsim::report

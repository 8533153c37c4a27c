#pragma once
/// @brief The Chrome/Perfetto trace-event JSON of a timeline ({"traceEvents": [...]}, for ui.perfetto.dev and
/// chrome://tracing), written as the exporter hands it over: process and thread names with their sort order
/// ("ph":"M"), complete slices ("ph":"X", ts and dur in microseconds with ns precision), instants and flow events
/// ("s", and "f" bound to the enclosing slice).

#include <ostream>

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
  void write(const nlohmann::json& event);

  std::ostream& out_;
  bool first_ = true;
};

}  // namespace warpsim::report

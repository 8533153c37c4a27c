#pragma once
/// @brief Pairs CUPTI's NVTX range start and end records (same id) into one Marker event. Pure.

#include <map>
#include <optional>
#include <vector>

#include "sink/activity_records.h"
#include "trace.pb.h"

namespace warpsim::tracer {

class MarkerPairs {
 public:
  /// A mark gives its event at once; a range start is held until its end arrives, which gives the range.
  std::optional<Event> add(const MarkerActivity& marker);
  /// Ranges still open (the app never ended them, or ends later than the trace): as events without an end.
  std::vector<Event> drain_open();

 private:
  std::map<std::uint32_t, MarkerActivity> open_;
};

}  // namespace warpsim::tracer

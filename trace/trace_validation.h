#pragma once
/// @brief Consistency rules a trace must follow beyond its protobuf schema, shared by writer and reader so that
/// nothing the writer accepts is refused on reading.

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>

#include "trace.pb.h"

namespace warpsim {

/// The device ordinals a header declares; events may only name these.
class KnownDevices {
 public:
  explicit KnownDevices(const TraceHeader& header);
  bool contains(std::uint32_t id) const { return ids_.count(id) != 0; }

 private:
  std::unordered_set<std::uint32_t> ids_;
};

/// Why the header is inconsistent (duplicate device id, link to an undeclared device), or nullopt if it is fine.
std::optional<std::string> find_header_problem(const TraceHeader& header);

/// Why the event is inconsistent, phrased to follow "a <kind> event " (e.g. "names device 3, which the header does
/// not declare", "ends (5 ns) before it starts (9 ns)"), or nullopt if it is fine.
std::optional<std::string> find_event_problem(const Event& event, const KnownDevices& devices);

/// "kernel", "memcpy", ... : the event kind as users read it in messages.
std::string event_kind_name(const Event& event);

}  // namespace warpsim

#pragma once
/// @brief The words reports use for the trace schema's enums, so that inspect, compare and the timeline agree.

#include <string>

#include "trace.pb.h"

namespace warpsim::report {

/// The copy kinds users read: "HtoD", "DtoH", "DtoD", "PtoP", "HtoH" (and "unknown" for KIND_UNSPECIFIED).
std::string copy_kind_label(Memcpy::Kind kind);
/// "timeline", "counters", "simulated", "synthetic" (and "unspecified").
std::string capture_mode_label(CaptureMode mode);

}  // namespace warpsim::report

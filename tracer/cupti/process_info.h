#pragma once
/// @brief What the trace header says about the traced process: host, command line, start time. Linux only.

#include <string>
#include <vector>

#include "trace.pb.h"
#include "tracer_config.h"

namespace warpsim::tracer {

/// The header fields known before any device is seen.
TraceHeader process_header(TraceMode mode);

}  // namespace warpsim::tracer

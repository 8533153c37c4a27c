#pragma once
/// @brief CUPTI's activity API: buffers in, plain activity records (activity_records.h) out to the TraceSink.

#include <cupti_activity.h>
#include <cupti_callbacks.h>
#include <cupti_result.h>

#include <optional>

#include "sink/trace_sink.h"

namespace warpsim::tracer {

/// Registers the buffer callbacks that hand every completed buffer to `sink` (which must outlive tracing).
bool register_activity_buffers(TraceSink& sink);
/// Asks CUPTI for the device and topology records (they describe the machine, not the run). The PCIE records
/// start CUPTI's legacy profiler, after which the range profiler refuses to start
/// (CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED, seen on H100 with CUDA 13.0): counters mode goes without them.
void dump_topology_records(bool with_pcie);
/// Turns on (off) the records of the run: kernels, copies, memsets, synchronizations, CUDA events, NVTX markers,
/// streams, and with `api_calls` every runtime and driver API call (timeline mode: the host side of the timeline).
void enable_run_records(bool api_calls);
void disable_run_records();

/// One CUPTI record as the tracer keeps it; nullopt for kinds it does not keep.
std::optional<Activity> convert_record(const CUpti_Activity& record);

/// Logs a CUPTI failure as one line on stderr; returns whether `result` is success.
bool cupti_ok(CUptiResult result, const char* call);

}  // namespace warpsim::tracer

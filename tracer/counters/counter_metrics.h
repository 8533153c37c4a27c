#pragma once
/// @brief Which CUPTI metrics the counters mode collects and where each lands in KernelCounters. Pure.
///
/// Three groups, because the range profiler cannot put NVLink/PCIe metrics in one configuration with the SM and
/// memory ones (CUPTI_ERROR_NOT_SUPPORTED, see shared notes/cupti.md): `core` (instruction classes, warp-level memory
/// instructions, pipes, L1/L2/DRAM traffic, occupancy: 5 passes on GH100), `links` (NVLink and PCIe bytes: 1 pass)
/// and `tensor` (tensor-core operations by input type: 6 passes on GH100, nearly one per type, so a run of its own
/// that only programs using tensor cores need) and `cache` (DRAM bytes and L2 misses again, in one pass, so that the
/// L2 holds what the program's earlier kernels left there rather than what a replay restored).
/// Names are those of GH100 (Hopper); a metric a chip lacks is dropped before profiling and stays absent.

#include <string>
#include <string_view>
#include <vector>

#include "trace.pb.h"

namespace warpsim::tracer {

enum class MetricGroup { kCore, kLinks, kTensor, kCache };

/// The metric names of `group`, in a fixed order.
std::vector<std::string> metric_names(MetricGroup group);

/// Stores `value` of CUPTI metric `metric` in its typed field, or in extra_metrics if it has none.
void set_counter(KernelCounters& counters, std::string_view metric, double value);

/// "dram__bytes_read" for "dram__bytes_read.sum": the base metric a chip lists as available.
std::string base_metric(std::string_view metric);

/// "core" / "links" / "tensor" / "cache" <-> MetricGroup; throws std::invalid_argument on anything else.
MetricGroup parse_metric_group(std::string_view text);

}  // namespace warpsim::tracer

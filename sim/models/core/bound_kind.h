#pragma once
// The kind of bound a model's limiter (KernelPrediction::limiter) names, for reports: compute, memory, latency or
// launch. The models name their limiters in words (block_time.cc's pipes, wave_time.cc's memory levels, mwp's cases,
// petri's issue or latency); this is the one place that sorts those words, and its test holds every limiter a model
// can give.
#include <string_view>

#include "trace.pb.h"

namespace warpsim::models {

/// KIND_UNSPECIFIED for an empty limiter or one no rule knows (a kernel that does not fit on an SM).
SimulatedBound::Kind bound_kind_of(std::string_view limiter);

}  // namespace warpsim::models

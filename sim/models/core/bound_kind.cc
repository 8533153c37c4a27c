#include "bound_kind.h"

#include <initializer_list>

namespace warpsim::models {
namespace {

bool names_any(std::string_view text, std::initializer_list<std::string_view> words) {
  for (std::string_view word : words) {
    if (text.find(word) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

SimulatedBound::Kind bound_kind_of(std::string_view limiter) {
  if (limiter.empty() || limiter.starts_with("does not fit")) return SimulatedBound::KIND_UNSPECIFIED;
  // mwp names its case, then the resource behind it ("compute bound (MWP > CWP): l1 bandwidth"): the resource says
  // more than the case.
  if (const auto colon = limiter.rfind(": "); colon != std::string_view::npos) limiter.remove_prefix(colon + 2);
  if (names_any(limiter, {"peer", "host", "remote"})) return SimulatedBound::REMOTE;
  if (names_any(limiter, {"dispatch", "launch"})) return SimulatedBound::LAUNCH;
  if (names_any(limiter, {"latency", "not enough warps", "departure delay", "concurrency"}))
    return SimulatedBound::LATENCY;
  // Pipes before memory words: "lsu pipe" is the issue of loads and stores, not the memory serving them.
  if (names_any(limiter, {"pipe", "issue", "compute"})) return SimulatedBound::COMPUTE;
  if (names_any(limiter, {"bandwidth", "wavefront", "dram", "l1", "l2", "shared", "atomic", "slice", "memory"}))
    return SimulatedBound::MEMORY;
  return SimulatedBound::KIND_UNSPECIFIED;
}

}  // namespace warpsim::models

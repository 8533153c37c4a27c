#pragma once
// The two variants of the Petri-net model, and the model names they go by (`--model`, `warpsim petri export -m`).
#include <optional>
#include <string_view>

namespace warpsim::models::petri {

enum class Variant {
  kPaper,     // `petri-paper`: the paper's three kinds, l1 = 20, l2 = 2, p0 = sm.schedulers
  kPlatform,  // `petri`: eight kinds, latencies and pipe rates from the GPU spec, DRAM slots
};

/// "petri-paper" or "petri".
inline std::string_view variant_name(Variant variant) { return variant == Variant::kPaper ? "petri-paper" : "petri"; }

/// The variant called `name`; nothing when `name` is neither.
inline std::optional<Variant> variant_named(std::string_view name) {
  for (const Variant v : {Variant::kPlatform, Variant::kPaper}) {
    if (variant_name(v) == name) return v;
  }
  return std::nullopt;
}

}  // namespace warpsim::models::petri

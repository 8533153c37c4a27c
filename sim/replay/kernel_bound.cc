#include "kernel_bound.h"

#include <limits>
#include <stdexcept>

#include "bound_kind.h"

namespace warpsim::replay {
namespace {

SimulatedBound make_bound(SimulatedBound::Kind kind, std::string limiter) {
  SimulatedBound bound;
  bound.set_kind(kind);
  bound.set_limiter(std::move(limiter));
  return bound;
}

}  // namespace

SimulatedBound model_bound(const models::KernelPrediction& prediction, bool recorded_durations) {
  if (recorded_durations) return make_bound(SimulatedBound::RECORDED, "recorded duration");
  return make_bound(models::bound_kind_of(prediction.limiter), prediction.limiter);
}

SimulatedBound transfer_bound(const Transfer& transfer, const Topology& topology, std::uint32_t gpu) {
  if (transfer.from == topology.gpu_memory(gpu)) return make_bound(SimulatedBound::MEMORY, "dram bandwidth (node)");
  if (transfer.from == topology.gpu_l2(gpu)) return make_bound(SimulatedBound::MEMORY, "l2 bandwidth (node)");
  if (transfer.from == topology.host()) return make_bound(SimulatedBound::REMOTE, "host memory");
  return make_bound(SimulatedBound::REMOTE, "peer memory");
}

std::uint16_t BoundTable::add(const SimulatedBound& bound) {
  const auto key = std::make_pair(static_cast<int>(bound.kind()), bound.limiter());
  const std::lock_guard lock(mutex_);
  if (const auto it = ids_.find(key); it != ids_.end()) return it->second;
  if (bounds_.size() >= std::numeric_limits<std::uint16_t>::max()) throw std::length_error("too many kernel bounds");
  bounds_.push_back(bound);
  const auto id = static_cast<std::uint16_t>(bounds_.size());
  ids_.emplace(key, id);
  return id;
}

const SimulatedBound* BoundTable::find(std::uint16_t id) const {
  const std::lock_guard lock(mutex_);
  if (id == 0 || id > bounds_.size()) return nullptr;
  return &bounds_[id - 1];
}

}  // namespace warpsim::replay

#include "memoized_model.h"

namespace warpsim::models {

KernelPrediction MemoizedModel::predict(const KernelView& kernel, const platform::GpuSpec& gpu) const {
  // The view holds no times and nothing that tells one launch from another (KernelView::of), so equal bytes mean
  // the same question; the GPU's number keeps GPUs with --set overrides apart.
  std::string key = kernel.launch().SerializeAsString();
  key += '\0' + std::to_string(kernel.recorded_l2_slices()) + '\0' + std::to_string(gpu_number(gpu));
  auto found = predictions_.find(key);
  if (found == predictions_.end()) found = predictions_.emplace(std::move(key), model_->predict(kernel, gpu)).first;
  return found->second;
}

// Serializing the spec for every launch cost a tenth of a replay's time; a replay asks about its few GPUs (a spec
// per device, each at its own address) over and over.
std::size_t MemoizedModel::gpu_number(const platform::GpuSpec& gpu) const {
  if (const auto known = gpu_at_.find(&gpu); known != gpu_at_.end()) return known->second;
  const auto found = gpu_numbers_.try_emplace(gpu.SerializeAsString(), gpu_numbers_.size()).first;
  gpu_at_.emplace(&gpu, found->second);
  return found->second;
}

}  // namespace warpsim::models

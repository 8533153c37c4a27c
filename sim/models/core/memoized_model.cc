#include "memoized_model.h"

namespace warpsim::models {

KernelPrediction MemoizedModel::predict(const KernelView& kernel, const platform::GpuSpec& gpu) const {
  // The view holds no times and nothing that tells one launch from another (KernelView::of), so equal bytes mean
  // the same question. A GpuSpec is small; keying on it keeps GPUs with --set overrides apart.
  std::string key = kernel.launch().SerializeAsString();
  key += '\0' + std::to_string(kernel.recorded_l2_slices()) + '\0';
  key += gpu.SerializeAsString();
  auto found = predictions_.find(key);
  if (found == predictions_.end()) found = predictions_.emplace(std::move(key), model_->predict(kernel, gpu)).first;
  return found->second;
}

}  // namespace warpsim::models

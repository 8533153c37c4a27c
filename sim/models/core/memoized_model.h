#pragma once
// A model that predicts each distinct launch once. Programs launch the same kernel with the same configuration and
// counters many times (a solver's iterations, a benchmark's repeats); a model is a pure function of the launch as a
// KernelView shows it and of the GPU spec, so identical ones get the first prediction back. What makes the slow
// models (the Petri nets) fast enough for whole programs.
#include <memory>
#include <string>
#include <unordered_map>

#include "kernel_model.h"

namespace warpsim::models {

class MemoizedModel : public KernelModel {
 public:
  explicit MemoizedModel(std::unique_ptr<KernelModel> model) : model_(std::move(model)) {}
  std::string_view name() const override { return model_->name(); }
  /// The wrapped model's prediction, computed on the first launch equal to this one (same view, same GPU spec).
  /// A spec is recognised by its address once seen: it must not change while this model is in use.
  KernelPrediction predict(const KernelView& kernel, const platform::GpuSpec& gpu) const override;
  std::size_t distinct_launches() const { return predictions_.size(); }

 private:
  // A number per distinct GPU spec (by its bytes), remembered per address.
  std::size_t gpu_number(const platform::GpuSpec& gpu) const;

  std::unique_ptr<KernelModel> model_;
  // Serialized view and GPU number -> prediction. Hashed: keys of equal launches share long prefixes (name, grid).
  mutable std::unordered_map<std::string, KernelPrediction> predictions_;
  mutable std::unordered_map<std::string, std::size_t> gpu_numbers_;
  mutable std::unordered_map<const platform::GpuSpec*, std::size_t> gpu_at_;
};

}  // namespace warpsim::models

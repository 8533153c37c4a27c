#pragma once
// The models `warpsim simulate --model NAME` can use. Adding a model: one line in registry.cc.
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kernel_model.h"

namespace warpsim::models {

struct ModelInfo {
  std::string name;
  std::string description;  // one line for --help and docs
  std::function<std::unique_ptr<KernelModel>()> make;
};

/// The model `simulate` uses unless told otherwise: the one with the lowest mean MAPE on the blind half of the
/// validation suite (docs/accuracy.md; scripts/accuracy-table.py).
inline constexpr std::string_view kDefaultModel = "wave-blocks";

/// Every known model, in the order --help lists them.
const std::vector<ModelInfo>& known_models();

/// The model called `name`; throws std::invalid_argument listing the known names when there is none.
std::unique_ptr<KernelModel> make_model(std::string_view name);

}  // namespace warpsim::models

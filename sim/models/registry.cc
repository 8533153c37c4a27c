#include "registry.h"

#include <stdexcept>

#include "roofline/roofline_model.h"

namespace warpsim::models {

const std::vector<ModelInfo>& known_models() {
  static const std::vector<ModelInfo> models{
      {"roofline", "slowest SM resource per block (issue, pipes, L1, shared) over waves with tail; memory via replay",
       [] { return std::make_unique<RooflineModel>(); }},
  };
  return models;
}

std::unique_ptr<KernelModel> make_model(std::string_view name) {
  std::string known;
  for (const ModelInfo& model : known_models()) {
    if (model.name == name) return model.make();
    known += (known.empty() ? "" : ", ") + model.name;
  }
  throw std::invalid_argument("unknown model '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace warpsim::models

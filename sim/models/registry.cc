#include "registry.h"

#include <stdexcept>

#include "mwp/mwp_model.h"
#include "petri/petri_model.h"
#include "roofline/roofline_model.h"
#include "wave/wave_model.h"

namespace warpsim::models {

const std::vector<ModelInfo>& known_models() {
  static const std::vector<ModelInfo> models{
      {"roofline", "slowest SM resource per block (issue, pipes, L1, shared) over waves with tail; memory via replay",
       [] { return std::make_unique<RooflineModel>(); }},
      {"wave", "paper 001: latency- or issue-bound processing blocks, bandwidth fixed points, waves; fitted launch",
       [] { return std::make_unique<WaveModel>(); }},
      {"wave-pipes", "wave with the issue slots and the pipes overlapping, sharing dispatch (p-norm), not summed",
       [] { return std::make_unique<WaveModel>(wave::IssueRule::kPipesOverlap); }},
      {"wave-blocks", "wave-pipes with pipelined blocks: dispatch during the waves, slot turnaround, DRAM concurrency",
       [] { return std::make_unique<WaveModel>(wave::IssueRule::kPipesOverlap, wave::BlockRule::kPipelined); }},
      {"mwp", "Hong & Kim ISCA 2009: memory vs computation warp parallelism per SM, repetitions with tail",
       [] { return std::make_unique<MwpModel>(); }},
      {"petri", "paper 000's warp Petri net per SM and wave; latencies, pipes, DRAM slots from the platform",
       [] { return std::make_unique<petri::PetriModel>(petri::Variant::kPlatform); }},
      {"petri-paper", "paper 000's warp Petri net as published: arithmetic, shared, global; l1=20, l2=2",
       [] { return std::make_unique<petri::PetriModel>(petri::Variant::kPaper); }},
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

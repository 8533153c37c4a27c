#include "overrides.h"

#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "field_setter.h"
#include "platform.h"
#include "scalar_parse.h"

namespace warpsim::platform {
namespace {

struct Assignment {
  std::string_view target;  // "gpu", "gpu3" or "node"
  std::string_view path;    // proto field path inside the target
  std::string_view value;
};

Assignment split(std::string_view assignment) {
  const std::size_t equals = assignment.find('=');
  if (equals == std::string_view::npos) throw std::invalid_argument("expected KEY=VALUE");
  const std::string_view key = assignment.substr(0, equals);
  const std::size_t dot = key.find('.');
  if (dot == std::string_view::npos || dot + 1 == key.size()) {
    throw std::invalid_argument("the key needs a target and a field: gpu.FIELD, gpuN.FIELD or node.FIELD");
  }
  return {key.substr(0, dot), key.substr(dot + 1), assignment.substr(equals + 1)};
}

std::invalid_argument unknown_target(std::string_view target) {
  return std::invalid_argument("unknown target \"" + std::string(target) + "\": keys start with gpu., gpuN. or node.");
}

/// A node GPU's spec is chosen when the GPUs are resolved, before overrides; renaming it here would leave the
/// resolved spec behind, so it is refused rather than silently ignored.
void refuse_gpu_reassignment(std::string_view path) {
  if (path.starts_with("gpus") && path.ends_with(".gpu")) {
    throw std::invalid_argument(
        "a node GPU's spec cannot be changed by --set (specs are resolved before overrides); "
        "edit the node file, or override the spec's fields with gpuN.FIELD=VALUE");
  }
}

void apply_to_gpus(const Assignment& assignment, std::vector<GpuSpec>& gpus) {
  if (assignment.target == "gpu") {
    for (GpuSpec& gpu : gpus) set_field(gpu, assignment.path, assignment.value);
    return;
  }
  const std::string_view digits = assignment.target.substr(3);
  std::uint64_t index = 0;
  try {
    index = parse_unsigned(digits, UINT32_MAX);
  } catch (const std::invalid_argument&) {
    throw unknown_target(assignment.target);
  }
  if (index >= gpus.size()) {
    throw std::invalid_argument("the node has no GPU " + std::string(digits) + " (it has gpu0..gpu" +
                                std::to_string(gpus.size() - 1) + ")");
  }
  set_field(gpus[index], assignment.path, assignment.value);
}

void apply(const Assignment& assignment, NodeSpec& node, std::vector<GpuSpec>& gpus) {
  if (assignment.target == "node") {
    refuse_gpu_reassignment(assignment.path);
    set_field(node, assignment.path, assignment.value);
  } else if (assignment.target.starts_with("gpu")) {
    apply_to_gpus(assignment, gpus);
  } else {
    throw unknown_target(assignment.target);
  }
}

}  // namespace

void apply_override(const std::string& assignment, NodeSpec& node, std::vector<GpuSpec>& gpus) {
  try {
    apply(split(assignment), node, gpus);
  } catch (const std::invalid_argument& problem) {
    throw PlatformError("--set " + assignment + ": " + problem.what());
  }
}

}  // namespace warpsim::platform

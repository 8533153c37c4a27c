#pragma once
// The path of one field inside a message, as validation reports it and the text-format locator resolves it to a line.
#include <string>
#include <vector>

namespace warpsim::platform {

/// One step of a path: a proto field name and, for a repeated field, the element index (-1: not repeated).
struct FieldStep {
  std::string field;
  int index = -1;
};

/// A field inside a message, e.g. {{"gpus", 1}, {"attach"}} for gpus[1].attach.
struct FieldPath {
  std::vector<FieldStep> steps;

  FieldPath() = default;
  FieldPath(std::initializer_list<FieldStep> init) : steps(init) {}

  /// This path with one more step.
  [[nodiscard]] FieldPath then(std::string field, int index = -1) const;
  /// "gpus[1].attach"
  [[nodiscard]] std::string to_string() const;
};

}  // namespace warpsim::platform

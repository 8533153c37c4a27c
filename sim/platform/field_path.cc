#include "field_path.h"

#include <utility>

namespace warpsim::platform {

FieldPath FieldPath::then(std::string field, int index) const {
  FieldPath longer = *this;
  longer.steps.push_back({std::move(field), index});
  return longer;
}

std::string FieldPath::to_string() const {
  std::string text;
  for (const FieldStep& step : steps) {
    if (!text.empty()) text += '.';
    text += step.field;
    if (step.index >= 0) text += "[" + std::to_string(step.index) + "]";
  }
  return text;
}

}  // namespace warpsim::platform

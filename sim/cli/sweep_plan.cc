#include "sweep_plan.h"

#include <fmt/format.h>

#include <stdexcept>

namespace warpsim::cli {

std::size_t SweepPlan::point_count() const {
  std::size_t count = 1;
  for (const SweepAxis& axis : axes) count *= axis.values.size();
  return count;
}

std::vector<std::pair<std::string, std::string>> SweepPlan::point(std::size_t index) const {
  std::vector<std::pair<std::string, std::string>> assignments(axes.size());
  for (std::size_t a = axes.size(); a-- > 0;) {
    const std::size_t size = axes[a].values.size();
    assignments[a] = {axes[a].key, axes[a].values[index % size]};
    index /= size;
  }
  return assignments;
}

std::filesystem::path SweepPlan::result_file(std::size_t index) const {
  return directory / "points" / fmt::format("{:05}.json", index);
}

std::filesystem::path SweepPlan::log_file(std::size_t index) const {
  return directory / "points" / fmt::format("{:05}.log", index);
}

nlohmann::json SweepPlan::to_json() const {
  nlohmann::json axes_json = nlohmann::json::array();
  for (const SweepAxis& axis : axes) axes_json.push_back({{"key", axis.key}, {"values", axis.values}});
  return {{"trace", trace},
          {"platform", platform},
          {"model", model},
          {"axes", axes_json},
          {"directory", directory.string()}};
}

SweepPlan SweepPlan::from_json(const nlohmann::json& json) {
  SweepPlan plan;
  plan.trace = json.at("trace").get<std::string>();
  plan.platform = json.at("platform").get<std::string>();
  plan.model = json.at("model").get<std::string>();
  for (const auto& axis : json.at("axes"))
    plan.axes.push_back({axis.at("key").get<std::string>(), axis.at("values").get<std::vector<std::string>>()});
  plan.directory = json.at("directory").get<std::string>();
  return plan;
}

SweepAxis parse_axis(const std::string& argument) {
  const auto equals = argument.find('=');
  if (equals == std::string::npos || equals == 0)
    throw std::invalid_argument("--set " + argument + ": expected KEY=VALUE[,VALUE...]");
  SweepAxis axis{argument.substr(0, equals), {}};
  const std::string values = argument.substr(equals + 1);
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = values.find(',', start);
    const std::string value = values.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (value.empty()) throw std::invalid_argument("--set " + argument + ": an empty value");
    axis.values.push_back(value);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return axis;
}

}  // namespace warpsim::cli

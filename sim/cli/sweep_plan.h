#pragma once
// A design sweep: one trace simulated at every point of a grid of platform values (`--set KEY=V1,V2,...` per axis).
// The plan is what every point's process needs to know, saved as DIR/sweep.json so that points run anywhere (this
// machine's --jobs, GNU parallel, a Slurm array) write their results where one merge finds them.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace warpsim::cli {

struct SweepAxis {
  std::string key;                  // a platform field, as --set names it
  std::vector<std::string> values;  // as written: each point passes one to `simulate --set KEY=VALUE`
};

struct SweepPlan {
  std::string trace;     // absolute
  std::string platform;  // a node name or an absolute node file
  std::string model;
  std::vector<SweepAxis> axes;
  std::filesystem::path directory;  // absolute: DIR/sweep.json, DIR/points/

  /// Points in the grid: the product of the axes' sizes.
  std::size_t point_count() const;
  /// The assignments of point `index`: one per axis, the last axis varying fastest.
  std::vector<std::pair<std::string, std::string>> point(std::size_t index) const;

  std::filesystem::path spec_file() const { return directory / "sweep.json"; }
  std::filesystem::path result_file(std::size_t index) const;  // DIR/points/NNNNN.json, `simulate --json`'s output
  std::filesystem::path log_file(std::size_t index) const;     // DIR/points/NNNNN.log, its stderr

  nlohmann::json to_json() const;
  static SweepPlan from_json(const nlohmann::json& json);
};

/// "gpu.sm_count=66,132" -> {gpu.sm_count, {66, 132}}. Throws std::invalid_argument naming the argument.
SweepAxis parse_axis(const std::string& argument);

}  // namespace warpsim::cli

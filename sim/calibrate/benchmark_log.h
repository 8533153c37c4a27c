#pragma once
// The microbenchmarks print their results as lines of words: "latency unloaded dram 268435456 682.0 344.5". This
// reads a benchmark's output and finds the lines a value comes from.
#include <filesystem>
#include <string>
#include <vector>

namespace warpsim::calibrate {

class BenchmarkLog {
 public:
  /// Reads `path`. Throws std::runtime_error naming it when it cannot be read.
  static BenchmarkLog read(const std::filesystem::path& path);
  explicit BenchmarkLog(std::filesystem::path path, std::vector<std::vector<std::string>> lines)
      : path_(std::move(path)), lines_(std::move(lines)) {}

  /// Every line whose first words are `prefix`, in order.
  std::vector<std::vector<std::string>> lines_starting(const std::vector<std::string>& prefix) const;
  /// Word `index` of every line starting with `prefix`, as numbers. Throws std::runtime_error naming the log and the
  /// prefix when no line has it, or when a word there is not a number.
  std::vector<double> numbers(const std::vector<std::string>& prefix, std::size_t index) const;
  /// The device the benchmark ran on, from its "device NAME... sms N ..." line ("" when there is none).
  std::string device_name() const;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::vector<std::vector<std::string>> lines_;
};

}  // namespace warpsim::calibrate

#include "benchmark_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace warpsim::calibrate {
namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : " ") + word;
  return text;
}

}  // namespace

BenchmarkLog BenchmarkLog::read(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot read the benchmark's output", path.string()));
  std::vector<std::vector<std::string>> lines;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::vector<std::string>& split = lines.emplace_back();
    for (std::string word; words >> word;) split.push_back(word);
  }
  return BenchmarkLog(path, std::move(lines));
}

std::vector<std::vector<std::string>> BenchmarkLog::lines_starting(const std::vector<std::string>& prefix) const {
  std::vector<std::vector<std::string>> found;
  for (const auto& line : lines_) {
    if (line.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), line.begin())) found.push_back(line);
  }
  return found;
}

std::vector<double> BenchmarkLog::numbers(const std::vector<std::string>& prefix, std::size_t index) const {
  std::vector<double> values;
  for (const auto& line : lines_starting(prefix)) {
    double value = 0;
    const std::string& word = index < line.size() ? line[index] : std::string();
    const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
    if (word.empty() || error != std::errc() || end != word.data() + word.size())
      throw std::runtime_error(
          fmt::format("{}: '{}': word {} is not a number", path_.string(), joined(line), index + 1));
    values.push_back(value);
  }
  if (values.empty())
    throw std::runtime_error(fmt::format("{}: no line starts with '{}' (did the benchmark run to the end?)",
                                         path_.string(), joined(prefix)));
  return values;
}

std::string BenchmarkLog::device_name() const {
  for (const auto& line : lines_starting({"device"})) {
    const auto sms = std::find(line.begin(), line.end(), "sms");
    return joined({line.begin() + 1, sms});
  }
  return "";
}

}  // namespace warpsim::calibrate

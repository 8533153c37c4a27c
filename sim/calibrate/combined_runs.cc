#include "combined_runs.h"

#include <fmt/format.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "platform.pb.h"
#include "statistics.h"

namespace warpsim::calibrate {
namespace {

// The decimals `text` was written with ("9626" 0, "0.864" 3): the combined value keeps them.
int decimals(const std::string& text) {
  const std::size_t dot = text.find('.');
  return dot == std::string::npos ? 0 : static_cast<int>(text.size() - dot - 1);
}

std::string with_decimals(double value, int places) { return fmt::format("{:.{}f}", value, places); }

// "9626 / 9393, spread 2.5%": every run's value and (largest - smallest) / median.
std::string spread_note(const std::vector<std::string>& texts, const std::vector<double>& values, double middle) {
  std::string list;
  for (const std::string& text : texts) list += (list.empty() ? "" : " / ") + text;
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  const double spread = middle == 0 ? 0 : (*high - *low) / middle * 100;
  return fmt::format("{} runs: {}, spread {:.1f}%", values.size(), list, spread);
}

Measurement combine_scalar(const std::vector<const Measurement*>& same) {
  std::vector<double> values;
  std::vector<std::string> texts;
  for (const Measurement* m : same) {
    try {
      values.push_back(std::stod(m->value));
    } catch (const std::exception&) {
      return *same.front();  // not a number (a name): run 1's
    }
    texts.push_back(m->value);
  }
  Measurement combined = *same.front();
  if (std::all_of(texts.begin(), texts.end(), [&](const std::string& t) { return t == texts.front(); }))
    return combined;
  const double middle = median(values);
  combined.value = with_decimals(middle, decimals(texts.front()));
  combined.source += fmt::format(" (median of {})", spread_note(texts, values, middle));
  return combined;
}

// A launch fit from each run: the median intercept and slope, the intercepts' spread in the comment.
Measurement combine_launch_fits(const std::vector<const Measurement*>& same) {
  std::vector<double> x0, x1;
  std::vector<std::string> x0_texts;
  platform::LaunchFit fit;
  for (const Measurement* m : same) {
    if (!google::protobuf::TextFormat::ParseFromString(m->value, &fit))
      throw std::runtime_error(fmt::format("calibrate: cannot read the launch fit '{}'", m->value));
    x0.push_back(fit.x0_ns());
    x1.push_back(fit.x1_ns_per_block());
    x0_texts.push_back(fmt::format("{:.1f}", fit.x0_ns()));
  }
  Measurement combined = *same.front();
  const double x0_middle = median(x0);
  combined.value =
      fmt::format("block_warps: {} x0_ns: {:.1f} x1_ns_per_block: {:.5f}", fit.block_warps(), x0_middle, median(x1));
  combined.source += fmt::format(" (median of {} in x0)", spread_note(x0_texts, x0, x0_middle));
  return combined;
}

}  // namespace

Measurements combine_runs(const std::vector<Measurements>& runs) {
  if (runs.size() <= 1) return runs.empty() ? Measurements{} : runs.front();
  Measurements combined;
  for (std::size_t i = 0; i < runs.front().size(); ++i) {
    std::vector<const Measurement*> same;
    for (std::size_t r = 0; r < runs.size(); ++r) {
      if (i >= runs[r].size() || runs[r][i].field != runs.front()[i].field)
        throw std::runtime_error(
            fmt::format("calibrate: run {} does not measure {} where run 1 does", r + 1, runs.front()[i].field));
      same.push_back(&runs[r][i]);
    }
    combined.push_back(same.front()->field == "launch_fits[]" ? combine_launch_fits(same) : combine_scalar(same));
  }
  return combined;
}

}  // namespace warpsim::calibrate

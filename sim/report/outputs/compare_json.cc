#include "outputs/compare_json.h"

#include "analysis/kernel_name.h"

namespace warpsim::report {
namespace {

// Percentages that do not exist (A took 0 ns) print as null rather than a made-up 0.
nlohmann::json optional_number(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json optional_text(const std::optional<std::string>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json origin_json(const TraceOrigin& origin) {
  return {{"path", origin.path},
          {"mode", origin.mode},
          {"platform", optional_text(origin.platform)},
          {"model", optional_text(origin.model)},
          {"devices", origin.devices}};
}

nlohmann::json by_name_json(const std::vector<NameError>& names) {
  nlohmann::json array = nlohmann::json::array();
  for (const NameError& n : names)
    array.push_back({{"name", n.name},
                     {"demangled", readable_kernel_name(n.name)},
                     {"launches", n.launches},
                     {"a_ns", n.a_ns},
                     {"b_ns", n.b_ns},
                     {"sum_error_pct", optional_number(n.sum_error_pct)},
                     {"mape_pct", optional_number(n.mape_pct)}});
  return array;
}

nlohmann::json kernels_json(const std::vector<KernelError>& kernels) {
  nlohmann::json array = nlohmann::json::array();
  for (const KernelError& k : kernels)
    array.push_back({{"device", k.stream.device},
                     {"stream", k.stream.stream},
                     {"index", k.index},
                     {"name", k.name},
                     {"a_ns", k.a_ns},
                     {"b_ns", k.b_ns},
                     {"error_pct", optional_number(k.error_pct)}});
  return array;
}

nlohmann::json per_trace_json(const PerTrace& values) { return {{"a", values.a}, {"b", values.b}}; }

nlohmann::json attribution_json(const std::vector<CategoryDiff>& categories) {
  nlohmann::json array = nlohmann::json::array();
  for (const CategoryDiff& c : categories)
    array.push_back({{"category", c.category}, {"a_ns", c.a_ns}, {"b_ns", c.b_ns}, {"diff_ns", c.diff_ns}});
  return array;
}

}  // namespace

nlohmann::json comparison_to_json(const Comparison& c) {
  return {
      {"a", origin_json(c.a)},
      {"b", origin_json(c.b)},
      {"matched", c.matched},
      {"skipped", c.skipped},
      {"mape_pct", c.mape_pct},
      {"median_ape_pct", c.median_ape_pct},
      {"kernel_time_ns", per_trace_json(c.kernel_time_ns)},
      {"span_ns", per_trace_json(c.span_ns)},
      {"span_error_pct", optional_number(c.span_error_pct)},
      {"attribution", attribution_json(c.attribution)},
      {"api_calls", per_trace_json(c.api_calls)},
      {"by_name", by_name_json(c.by_name)},
      {"kernels", kernels_json(c.kernels)},
      {"truncated", !c.warnings.empty()},
  };
}

}  // namespace warpsim::report

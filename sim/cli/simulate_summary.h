#pragma once
// What `warpsim simulate` tells its user about a simulation: the text summary on stdout, or one JSON object (`--json`,
// keys in docs/schemas/simulate.schema.json), and in both cases the warnings on stderr.
#include <nlohmann/json.hpp>

#include <string>

#include "simulation.h"

namespace warpsim::cli {

/// What the command did around the simulation.
struct SimulateRun {
  std::string trace;
  double host_scale = 1;
  std::string output, timeline, csv;  // empty: not written
  double took_s = 0;                  // the whole command: reading, predicting, replaying, writing
  double peak_memory_mib = 0;
};

/// Lines for missing data: no API calls, operations without one, kernels without counters.
void print_warnings(const SimulateRun& run, const replay::SimulationResult& result);
/// The summary's text, up to the outputs written.
void print_text_summary(const SimulateRun& run, const replay::SimulationResult& result);
/// Every number the text prints, and the outputs.
nlohmann::json summary_json(const SimulateRun& run, const replay::SimulationResult& result);

}  // namespace warpsim::cli

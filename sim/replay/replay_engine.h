#pragma once
// Runs a ReplayProgram in SimGrid: one actor per host thread, one per (device, stream). Each host thread computes,
// issues operations and blocks as its program says; each stream actor runs its operations in order once issued and
// once the operations they wait for have ended. Copies that need a copy engine hold it while they run.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "op_work.h"
#include "replay_program.h"
#include "topology.h"

namespace warpsim::replay {

struct ReplayTimings {
  std::vector<double> op_start, op_end;           // simulated seconds, per operation (start: before its setup)
  // Per operation, which of its transfers (OpWork::transfers) ended last, after its SM work: what bounded it. -1: the
  // SM work ended last (or the operation had nothing but its setup).
  std::vector<std::int16_t> op_last_transfer;
  std::vector<std::vector<double>> host_step_end;  // per thread, when each of its steps finished
  double end = 0;                                  // when the last actor finished
};

/// Called with the number of operations ended so far, after each one ends (progress displays).
using OpsEnded = std::function<void(std::size_t)>;

/// Creates the process's SimGrid engine (one per process: shared notes/simgrid.md), builds the node and runs.
/// `copy_engines`: how many copy engines (OpWork::copy_engine indexes them), each running one copy at a time.
ReplayTimings run_replay(const Topology& topology, const ReplayProgram& program, const std::vector<OpWork>& work,
                         std::size_t copy_engines = 0, const OpsEnded& ops_ended = {});

}  // namespace warpsim::replay

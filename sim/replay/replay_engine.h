#pragma once
// Runs a ReplayProgram in SimGrid: one actor for the host thread, one per (device, stream). The host issues
// operations in API order, paying the API call cost for each, and blocks where the program says; each stream actor
// runs its operations in order once issued and once the operations they wait for have ended.
#include <cstddef>
#include <vector>

#include "op_work.h"
#include "replay_program.h"
#include "topology.h"

namespace warpsim::replay {

struct ReplayTimings {
  std::vector<double> op_start, op_end;  // simulated seconds, per operation (start: before its setup)
  std::vector<double> host_step_end;     // when each host step finished
  double end = 0;                        // when the last actor finished
};

/// Creates the process's SimGrid engine (one per process: shared notes/simgrid.md), builds the node and runs.
ReplayTimings run_replay(const Topology& topology, const ReplayProgram& program, const std::vector<OpWork>& work,
                         double api_call_overhead_s);

}  // namespace warpsim::replay

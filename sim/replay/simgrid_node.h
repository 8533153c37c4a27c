#pragma once
// Builds a Topology in SimGrid: one full zone, a host per activity end point, a link per topology link, and an
// explicit route (both directions) between every pair of hosts.
#include <simgrid/s4u.hpp>

#include <vector>

#include "topology.h"

namespace warpsim::replay {

struct SimgridNode {
  std::vector<simgrid::s4u::Host*> hosts;  // per topology vertex; nullptr for switches
};

/// Sets the model flags the replay needs (shared notes/simgrid.md) and builds the platform. Call once, right after
/// creating the Engine.
SimgridNode build_simgrid_node(simgrid::s4u::Engine& engine, const Topology& topology);

}  // namespace warpsim::replay

#pragma once
// Builds a Topology in SimGrid: one full zone, a host per activity end point, a link per topology link, and an
// explicit route for each (from, to) pair the replay's transfers use. Only those: a node of 1,000 GPUs has 9 million
// host pairs, and routing them all took minutes where a trace uses a few dozen.
#include <simgrid/s4u.hpp>

#include <utility>
#include <vector>

#include "topology.h"

namespace warpsim::replay {

struct SimgridNode {
  std::vector<simgrid::s4u::Host*> hosts;  // per topology vertex; nullptr for switches
};

/// Sets the model flags the replay needs (shared notes/simgrid.md) and builds the platform with a route for each of
/// `routes` (topology vertices that are SimGrid hosts, from and to). Call once, right after creating the Engine.
/// Throws std::runtime_error when a pair has no route.
SimgridNode build_simgrid_node(simgrid::s4u::Engine& engine, const Topology& topology,
                               const std::vector<std::pair<std::size_t, std::size_t>>& routes);

}  // namespace warpsim::replay

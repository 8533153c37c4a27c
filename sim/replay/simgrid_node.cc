#include "simgrid_node.h"

#include <string>

#include "units.h"

namespace sg4 = simgrid::s4u;

namespace warpsim::replay {
namespace {

void configure_models(sg4::Engine& engine) {
  // Without these CM02 flags SimGrid's default model scales latencies by 13, bandwidths by 0.97, adds reverse
  // cross-traffic, and caps each flow through TCP-gamma: copies would not take bytes/bandwidth + latency.
  engine.set_config("network/model:CM02");
  engine.set_config("network/crosstraffic:0");
  engine.set_config("network/TCP-gamma:1e30");
}

struct LinkHandles {
  sg4::Link* shared = nullptr;
  sg4::SplitDuplexLink* duplex = nullptr;
};

LinkHandles create_link(sg4::NetZone* zone, const TopologyLink& link) {
  const double bandwidth = units::bandwidth_from_gb_per_s(link.bandwidth_gb_per_s);
  const double latency = units::latency_from_ns(link.latency_ns);
  LinkHandles handles;
  if (link.sharing == LinkSharing::kFullDuplex) {
    handles.duplex = zone->create_split_duplex_link(link.name, bandwidth);
    handles.duplex->set_latency(latency)->seal();
  } else {
    handles.shared = zone->create_link(link.name, bandwidth);
    handles.shared->set_latency(latency)->set_sharing_policy(sg4::Link::SharingPolicy::SHARED)->seal();
  }
  return handles;
}

std::vector<sg4::LinkInRoute> simgrid_route(const std::vector<Hop>& hops, const std::vector<LinkHandles>& links) {
  std::vector<sg4::LinkInRoute> route;
  for (const Hop& hop : hops) {
    const LinkHandles& handles = links[hop.link];
    if (handles.duplex) {
      route.emplace_back(handles.duplex, hop.a_to_b ? sg4::LinkInRoute::Direction::UP : sg4::LinkInRoute::Direction::DOWN);
    } else {
      route.emplace_back(handles.shared);
    }
  }
  return route;
}

}  // namespace

SimgridNode build_simgrid_node(sg4::Engine& engine, const Topology& topology,
                               const std::vector<std::pair<std::size_t, std::size_t>>& routes) {
  configure_models(engine);
  sg4::NetZone* zone = sg4::create_full_zone("node");
  SimgridNode node;
  node.hosts.resize(topology.vertices().size(), nullptr);
  for (std::size_t v = 0; v < topology.vertices().size(); ++v) {
    const TopologyVertex& vertex = topology.vertices()[v];
    if (!vertex.is_simgrid_host()) continue;
    // One core per SM, running one SM-microsecond of work per simulated microsecond.
    node.hosts[v] = zone->create_host(vertex.name, units::kSmWorkPerMicrosecond)->set_core_count(vertex.cores)->seal();
  }
  std::vector<LinkHandles> links;
  for (const TopologyLink& link : topology.links()) links.push_back(create_link(zone, link));
  for (const auto& [from, to] : routes) {
    zone->add_route(node.hosts.at(from)->get_netpoint(), node.hosts.at(to)->get_netpoint(), nullptr, nullptr,
                    simgrid_route(topology.route(from, to), links), false);
  }
  zone->seal();
  return node;
}

}  // namespace warpsim::replay

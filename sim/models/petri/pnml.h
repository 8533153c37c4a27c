#pragma once
// A Net as PNML (ISO/IEC 15909-2), so Petri-net tools can open, draw and analyse the nets the model runs.
//
// The net is written with the P/T-net type (http://www.pnml.org/version-2009/grammar/ptnet) on one page: places with
// their initial marking, transitions, arcs with their weight as inscription. Inhibitor arcs are not part of ptnet:
// they are arcs from the place to the transition carrying the child element <type value="inhibitor"/> (and normal arcs
// <type value="normal"/>), the convention of pnml.org's inhibitorptnet extension (specialarcs.rng, van der Werf and
// Hillah 2009) that PIPE also reads; their inscription is the threshold (1: the classic zero test). A strict ptnet
// validator rejects the <type> children; a tool without inhibitor arcs would read them as normal arcs, a different net.
// Ids are the net's names (already XML names: "w3.p5", "t0"); each node gets a position, one row per warp (the part
// of its name before the first '.'), so that editors show something readable.
#include <ostream>
#include <string>

#include "petri/net.h"

namespace warpsim::models::petri {

inline constexpr const char* kPnmlPtnetType = "http://www.pnml.org/version-2009/grammar/ptnet";

/// Writes `net` as one PNML document called `title`.
void write_pnml(std::ostream& out, const Net& net, const std::string& title);

}  // namespace warpsim::models::petri

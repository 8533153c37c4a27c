#pragma once
// The part of a warp net that all warps of one SM share: the paper's place p0 (SM) and transition t0 (waiting),
// plus one place of ours, p_active, that makes the net stop.
//
//   p0        SM: one token per warp scheduler (GpuSpec sm.schedulers)
//   p_active  active warps: one token per warp; each warp's terminating transition takes one
//   t0        waiting: read arcs (take and put back) on p0 and p_active; an inhibitor arc from every warp's "ready"
//             place (the paper's p2), so it fires exactly in the steps where a scheduler is free, a warp is still
//             active and no warp is ready: it counts the SM's idle steps.
//
// Why p_active: in the paper's net t0 needs only p0 and empty p2s, which is also true once every warp has finished,
// so t0 would fire forever and the dead marking the paper runs to would never come. Requiring an active warp makes
// the marking dead exactly when the last warp terminates.
#include <vector>

#include "petri/net.h"

namespace warpsim::models::petri {

struct SmPart {
  PlaceId sm = 0;            // p0
  PlaceId active = 0;        // p_active
  TransitionId waiting = 0;  // t0
};

/// Adds p0, p_active and t0. Call first, so that t0 is transition 0 and p0 place 0 of the net.
SmPart add_sm_part(NetBuilder& builder, Tokens schedulers, Tokens warps);

/// Adds the inhibitor arcs from each warp's ready place to t0, once the warps exist.
void inhibit_waiting(NetBuilder& builder, const SmPart& sm, const std::vector<PlaceId>& ready_places);

}  // namespace warpsim::models::petri

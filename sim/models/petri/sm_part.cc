#include "petri/sm_part.h"

namespace warpsim::models::petri {

SmPart add_sm_part(NetBuilder& builder, Tokens schedulers, Tokens warps) {
  SmPart sm;
  sm.sm = builder.add_place("p0", schedulers);
  sm.active = builder.add_place("p_active", warps);
  sm.waiting = builder.add_transition("t0");
  builder.read(sm.waiting, sm.sm);
  builder.read(sm.waiting, sm.active);
  return sm;
}

void inhibit_waiting(NetBuilder& builder, const SmPart& sm, const std::vector<PlaceId>& ready_places) {
  for (const PlaceId ready : ready_places) builder.inhibitor(sm.waiting, ready);
}

}  // namespace warpsim::models::petri

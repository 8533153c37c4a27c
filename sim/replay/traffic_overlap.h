#pragma once
// How much of a kernel's remote and local traffic ran apart in time, from its recorded traffic profile (CUPTI PM
// sampling, `warpsim record --mode traffic`). Remote data that the first blocks read ("batch") moves before the local
// data, so the two phases add up; interleaved data ("spread") moves beside it, and the slower one alone sets the time.
#include "trace.pb.h"

namespace warpsim::replay {

/// 1 - the overlap of the two shares over the kernel's time bins (the sum over bins of the smaller share): 0 when
/// remote and local bytes moved in the same proportions throughout, 1 when never in the same bin. 0 without a profile,
/// or when it lacks either kind (the assumption: everything together).
double serial_share(const TrafficProfile& profile);

}  // namespace warpsim::replay

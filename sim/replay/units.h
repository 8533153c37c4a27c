#pragma once
// The one place where warpsim's units become SimGrid's (shared notes/simgrid.md: SimGrid 3.32's solver crashes at
// raw GPU-scale rates, so the replay runs in scaled units). One simulated "second" is one microsecond: bandwidths
// are bytes per microsecond, latencies microseconds, and SM work is counted in picoseconds of SM time ("flops" of a
// host running at 10^6 per simulated second).
#include <cmath>
#include <cstdint>

namespace warpsim::replay::units {

inline constexpr double kSmWorkPerMicrosecond = 1e6;  // SM "flops" per simulated second (= per microsecond)

inline double bandwidth_from_gb_per_s(double gb_per_s) { return gb_per_s * 1e3; }  // 1e9 B/s = 1e3 B/us
inline double latency_from_ns(double ns) { return ns * 1e-3; }
inline double sim_from_seconds(double seconds) { return seconds * 1e6; }
inline double seconds_from_sim(double sim_time) { return sim_time * 1e-6; }
inline double sm_work_from_seconds(double seconds) { return sim_from_seconds(seconds) * kSmWorkPerMicrosecond; }

}  // namespace warpsim::replay::units

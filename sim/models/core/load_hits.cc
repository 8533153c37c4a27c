#include "load_hits.h"

#include <algorithm>

#include "kernel_work.h"
#include "numeric.h"

namespace warpsim::models {

namespace {

double unit_clamp(double x) { return std::clamp(x, 0.0, 1.0); }

}  // namespace

std::optional<double> l2_load_hit_fraction(const MemoryTraffic& m) {
  const double reads = as_double(m.l2_read_sectors());
  const bool misses_consistent = m.l2_device_read_miss_sectors() >= m.l2_device_read_miss_requests();
  if (m.has_l2_device_read_miss_sectors() && misses_consistent && reads > 0) {
    return 1 - unit_clamp(as_double(m.l2_device_read_miss_sectors()) / reads);
  }
  if (!m.has_l2_hit_rate_pct()) return std::nullopt;
  const double hit_rate = unit_clamp(m.l2_hit_rate_pct() / 100);
  const double all = as_double(m.l2_bytes()) / kSectorBytes;
  const double writes = as_double(m.l2_write_sectors());
  if (all <= writes) return hit_rate;
  return unit_clamp((hit_rate * all - writes) / (all - writes));
}

}  // namespace warpsim::models

#include "traffic_overlap.h"

#include <algorithm>

namespace warpsim::replay {
namespace {

double total(const google::protobuf::RepeatedField<float>& shares) {
  double sum = 0;
  for (float share : shares) sum += static_cast<double>(share);
  return sum;
}

}  // namespace

double serial_share(const TrafficProfile& profile) {
  const auto& remote = profile.remote_share();
  const auto& local = profile.local_share();
  if (remote.empty() || remote.size() != local.size()) return 0;
  const double remote_total = total(remote);
  const double local_total = total(local);
  if (remote_total <= 0 || local_total <= 0) return 0;
  double overlap = 0;
  for (int bin = 0; bin < remote.size(); ++bin)
    overlap += std::min(static_cast<double>(remote[bin]) / remote_total, static_cast<double>(local[bin]) / local_total);
  return std::clamp(1 - overlap, 0.0, 1.0);
}

}  // namespace warpsim::replay

// Writes the synthetic trace the replay benchmark runs (scripts/bench-replay.sh):
//   make_replay_bench_trace OUT.wstrace [OPERATIONS]   (default 100000)
// Two GPUs with four streams each: kernels with counters, copies of every kind between host and GPUs and between
// the GPUs, a cross-stream event wait every 16 operations and a device synchronization every 1000, in API order.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "sample_trace.h"

namespace {

namespace wt = warpsim::testing;
using warpsim::Event;
using warpsim::Memcpy;
using warpsim::Synchronization;

constexpr std::uint32_t kGpus = 2;
constexpr std::uint32_t kStreamsPerGpu = 4;
constexpr std::uint64_t kStep = 10'000;  // ns between recorded operations (their times do not matter to the replay)

Event copy_for(std::uint64_t i, std::uint32_t gpu, std::uint32_t stream, std::uint64_t t) {
  static const Memcpy::Kind kinds[] = {Memcpy::HTOD, Memcpy::DTOH, Memcpy::PTOP, Memcpy::DTOD};
  Event copy = wt::copy_event(kinds[(i / 4) % 4], 4u << 20, gpu, stream, t, kStep / 2);
  copy.mutable_memcpy()->set_src_memory(warpsim::MEMORY_KIND_PINNED);
  return copy;
}

Event kernel_for(std::uint64_t i, std::uint32_t gpu, std::uint32_t stream, std::uint64_t t) {
  Event kernel = wt::kernel_event(gpu, stream, "_Z6kernelPfi" + std::to_string(i % 7), t, kStep / 2);
  *kernel.mutable_kernel()->mutable_counters() = wt::sample_counters((1u << 20) * (1 + i % 16));
  return kernel;
}

void set_correlation(Event& event, std::uint64_t id) {
  if (event.has_kernel()) event.mutable_kernel()->set_correlation_id(id);
  if (event.has_memcpy()) event.mutable_memcpy()->set_correlation_id(id);
  if (event.has_sync()) event.mutable_sync()->set_correlation_id(id);
}

std::vector<Event> bench_events(std::uint64_t operations) {
  std::vector<Event> events;
  std::uint64_t t = 1'000'000;
  for (std::uint64_t i = 0; i < operations; ++i, t += kStep) {
    const std::uint32_t gpu = static_cast<std::uint32_t>(i % kGpus);
    const std::uint32_t stream = 10 + gpu * kStreamsPerGpu + static_cast<std::uint32_t>((i / kGpus) % kStreamsPerGpu);
    events.push_back(i % 4 == 3 ? copy_for(i, gpu, stream, t) : kernel_for(i, gpu, stream, t));
    if (i % 16 == 15) {
      events.push_back(wt::sync_event(Synchronization::EVENT_RECORD, gpu, stream, i, 0));
      events.push_back(wt::sync_event(Synchronization::STREAM_WAIT_EVENT, gpu, stream == 10 ? 11 : 10, i, t));
    }
    if (i % 1000 == 999) events.push_back(wt::sync_event(Synchronization::CONTEXT_SYNCHRONIZE, gpu, 0, 0, t));
  }
  for (std::uint64_t id = 0; id < events.size(); ++id) set_correlation(events[id], id + 1);
  return events;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: make_replay_bench_trace OUT.wstrace [OPERATIONS]\n";
    return 2;
  }
  const std::uint64_t operations = argc == 3 ? std::strtoull(argv[2], nullptr, 10) : 100'000;
  wt::write_trace(argv[1], wt::two_gpu_header(), bench_events(operations));
  std::cout << argv[1] << ": " << operations << " kernels and copies on " << kGpus * kStreamsPerGpu << " streams\n";
  return EXIT_SUCCESS;
}

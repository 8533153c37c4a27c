#pragma once
/// @brief A what-if trace for more GPUs: a two-GPU SPMD recording scaled to N GPUs as N/2 copies of the recorded pair.
///
/// Pair p runs on GPUs 2p and 2p+1 and does what GPUs 0 and 1 did in the recording: the same kernels (with their
/// counters and SASS summaries), copies, memsets and synchronizations, each GPU's peer its pair partner (every
/// dependency of the recording stays inside a pair, so the copy is consistent whatever the program did). Streams,
/// CUDA events, correlation ids and graphs get ids of their own per pair. It is weak scaling: every GPU keeps the
/// work it had, and what N GPUs add is sharing the host, its PCIe links and the node's NVLink/NVSwitch fabric.
/// What it cannot know: that a middle GPU of a chain exchanges with two neighbours (here each GPU has one peer), and
/// any work the program does once for all GPUs (it is done once per pair here).
///
/// Correlation ids number the calls in the order a shared host makes them (each recorded top-level call, with the calls
/// nested in it, once per pair in turn), as CUPTI numbers a process's calls: the replay takes each thread's calls in
/// that order. Each pair's ids keep the recording's order.
///
/// The host: a recorded thread that drove one GPU (all the GPU work of its calls is on one device, as in a program
/// with a thread per GPU) gets a copy per pair, with the recorded times. A thread that drove both (or none) issues
/// every pair's calls in turn: for each recorded call, pair 0's call after its recorded gap and with its duration,
/// then pair 1's, ..., so the host's time grows with the pairs (gaps are repeated: per-GPU setup and issue code runs
/// once per GPU). `HostThreads` can force either for every thread. Pure: no CUDA.

#include <cstdint>
#include <filesystem>

namespace warpsim::trace {

enum class HostThreads {
  kAuto,    ///< per recorded thread: copies per pair if it drove one GPU, else shared
  kShared,  ///< every recorded thread issues every pair's calls (one process, one set of threads)
  kOwn,     ///< every pair gets copies of every thread (one process or one set of threads per pair)
};

struct ScaleOptions {
  std::uint32_t gpus = 4;  ///< even, at least 2
  HostThreads host = HostThreads::kAuto;
};

struct ScaleSummary {
  std::uint32_t pairs = 0;
  std::uint64_t events_read = 0;
  std::uint64_t events_written = 0;
};

/// Writes `output`, the N-GPU trace of the two-GPU trace `input`. Throws TraceError when `input` is not a two-GPU
/// recording (devices 0 and 1), is a simulated trace, or `options.gpus` is odd or below 2. `output` is written under a
/// temporary name and renamed at the end, so a failure leaves any existing file untouched.
ScaleSummary scale_pairs(const std::filesystem::path& input, const ScaleOptions& options,
                         const std::filesystem::path& output);

}  // namespace warpsim::trace

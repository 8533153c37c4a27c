#pragma once
/// @brief A trace's GPU operations (kernels, copies, memsets) as slices on their (device, stream) tracks, for the
/// report's timeline: small records with labels kept once, and at most a given number of them, so a page stays a
/// size a browser opens.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/kernel_match.h"

namespace warpsim::report {

enum class SliceKind : std::uint8_t { kKernel = 0, kCopy = 1, kMemset = 2 };

struct ActivitySlice {
  std::uint32_t track = 0;  ///< index into TraceActivity::tracks
  std::uint32_t label = 0;  ///< index into TraceActivity::labels
  SliceKind kind = SliceKind::kKernel;
  std::uint64_t start_ns = 0, end_ns = 0;
  std::uint64_t bytes = 0;  ///< copies and memsets
};

struct TraceActivity {
  std::vector<StreamKey> tracks;    ///< in order of first appearance
  std::vector<std::string> labels;  ///< short kernel names, copy kinds ("HtoD copy"), "memset"
  std::vector<ActivitySlice> slices;
  std::uint64_t operations = 0;  ///< operations with times in the trace; slices holds the first max_slices of them
};

/// Reads the trace at `path` once. Operations without times (counters-mode kernels) are left out. Throws TraceError on
/// bad input.
TraceActivity read_activity(const std::filesystem::path& path, std::size_t max_slices);

}  // namespace warpsim::report

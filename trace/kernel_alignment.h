#pragma once
/// @brief Aligns two runs' kernel launches like a diff: which launch of one run is the same launch in the other when
/// the runs made different choices (cuFFT picked another kernel for the same plan, a loop ran once more). Elements are
/// opaque keys, equal keys meaning "the same launch"; pure, no trace types.
///
/// How (each step only where the previous one cannot finish):
///  1. The common prefix and suffix are paired as they stand: O(N + M).
///  2. Myers' O(ND) greedy diff ("An O(ND) Difference Algorithm", 1986) on the rest, bounded to kEditBudget
///     insertions plus deletions: the longest common subsequence, in O((N + M) D) time and O(D^2) memory (8 MiB at
///     most). Near-identical runs end here.
///  3. Beyond that budget: anchors, as patience diff takes them: keys that occur exactly once in each sequence, of
///     which the longest chain in the same order in both (O(N log N)) is paired. Each stretch between anchors is then
///     aligned by 1 and by rounds of 2 bounded to 512 edits, each round keeping the path to the furthest point it
///     reached and the next one starting there (GNU diff's way out of expensive cases): O((N + M) 512) time in all.
///     Not always a longest common subsequence any more (a long insertion in a stretch with no anchor can cost a few
///     hundred pairs), but always a common subsequence: every pair has equal keys and pairs never cross.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace warpsim::trace {

inline constexpr std::size_t kUnpaired = std::numeric_limits<std::size_t>::max();

/// Insertions plus deletions up to which the alignment is exact (a longest common subsequence).
inline constexpr std::int64_t kEditBudget = 2048;

/// For each element of `a`, the index of the element of `b` it is paired with, or kUnpaired. Paired elements have equal
/// keys and pairs keep the order of both sequences. A substitution (`x` in `a` where `b` has `y`) leaves both unpaired.
std::vector<std::size_t> align_sequences(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b);

}  // namespace warpsim::trace

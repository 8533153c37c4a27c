#include "kernel_alignment.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <unordered_map>
#include <utility>

namespace warpsim::trace {
namespace {

using Key = std::uint32_t;
using Keys = std::span<const Key>;
using Pairs = std::vector<std::pair<std::size_t, std::size_t>>;  // (index in a, index in b)

// Edits per round of a stretch aligned in rounds: a round costs O(kRoundEdits^2) and moves at least kRoundEdits
// forward, so smaller is faster; 512 still spans any one library's change of kernels.
constexpr std::int64_t kRoundEdits = 512;

/// A point of the edit graph: x elements of a and y of b consumed, reached in row d (with d edits).
struct Point {
  std::int64_t x = 0;
  std::int64_t y = 0;
  std::int64_t d = 0;
};

/// The rows of Myers' greedy search over a (N) against b (M). Row d holds, for each diagonal k = x - y in -d..d (step
/// 2), the furthest x reachable with d insertions plus deletions, or -1 where the diagonal leaves the grid. Every row
/// is kept to trace the path back: row d (d + 1 entries) starts at index d(d + 1)/2 of one flat array, so rows 0..D
/// take (D + 1)(D + 2)/2 ints: 8 MiB for kEditBudget.
class EditGraph {
 public:
  EditGraph(Keys a, Keys b) : a_(a), b_(b), n_(std::ssize(a)), m_(std::ssize(b)) {}

  /// Adds rows until one reaches (N, M) (true) or `max_edits` + 1 rows are done (false).
  bool search(std::int64_t max_edits);
  /// Where to trace back from: (N, M) once reached, else the furthest point of the last row.
  Point last_point() const;
  /// Calls `pair(x, y)` for each diagonal step (a[x] == b[y]) on the path to `to` (from last_point), last first.
  template <class Pair>
  void trace_back(Point to, Pair pair) const;

 private:
  /// How row d enters diagonal k: the x before following the diagonal, and the point of row d - 1 it comes from.
  struct Entry {
    std::int64_t x = -1;
    std::int64_t from_k = 0;
    std::int64_t from_x = 0;
  };
  std::int64_t at(std::int64_t d, std::int64_t k) const {
    return rows_[static_cast<std::size_t>(d * (d + 1) / 2 + (k + d) / 2)];
  }
  Entry enter(std::int64_t d, std::int64_t k) const;
  std::int64_t follow_diagonal(std::int64_t x, std::int64_t k) const;

  Keys a_, b_;
  std::int64_t n_, m_;
  std::vector<std::int32_t> rows_;  // kernel counts fit 31 bits; half the memory of 64-bit entries
  std::int64_t rows_done_ = 0;
  std::int64_t end_d_ = -1;  // the row that reached (N, M)
};

EditGraph::Entry EditGraph::enter(std::int64_t d, std::int64_t k) const {
  if (d == 0) return {0, 0, 0};
  // Down from diagonal k + 1 takes b[y] (an insertion), right from k - 1 takes a[x] (a deletion); both must stay on
  // the grid. Ties give the same point either way; down is chosen, and trace_back asks this same function.
  Entry down, right;
  if (k + 1 <= d - 1 && at(d - 1, k + 1) >= 0 && at(d - 1, k + 1) - k <= m_)
    down = {at(d - 1, k + 1), k + 1, at(d - 1, k + 1)};
  if (k - 1 >= -(d - 1) && at(d - 1, k - 1) >= 0 && at(d - 1, k - 1) + 1 <= n_)
    right = {at(d - 1, k - 1) + 1, k - 1, at(d - 1, k - 1)};
  return right.x > down.x ? right : down;
}

std::int64_t EditGraph::follow_diagonal(std::int64_t x, std::int64_t k) const {
  std::int64_t y = x - k;
  while (x < n_ && y < m_ && a_[static_cast<std::size_t>(x)] == b_[static_cast<std::size_t>(y)]) ++x, ++y;
  return x;
}

bool EditGraph::search(std::int64_t max_edits) {
  for (std::int64_t d = rows_done_; d <= max_edits; ++d) {
    for (std::int64_t k = -d; k <= d; k += 2) {
      std::int64_t x = enter(d, k).x;
      if (x >= 0) x = follow_diagonal(x, k);
      rows_.push_back(static_cast<std::int32_t>(x));
      if (x == n_ && x - k == m_) end_d_ = d;
    }
    rows_done_ = d + 1;
    if (end_d_ >= 0) return true;
  }
  return false;
}

Point EditGraph::last_point() const {
  if (end_d_ >= 0) return {n_, m_, end_d_};
  // Furthest along (largest x + y); among equals, the one whose x:y is nearest N:M, so neither side runs ahead.
  const std::int64_t d = rows_done_ - 1;
  Point best{-1, 0, d};
  std::int64_t best_skew = 0;
  for (std::int64_t k = -d; k <= d; k += 2) {
    const Point p{at(d, k), at(d, k) - k, d};
    if (p.x < 0) continue;
    const std::int64_t skew = std::abs(p.x * m_ - p.y * n_);
    if (best.x < 0 || p.x + p.y > best.x + best.y || (p.x + p.y == best.x + best.y && skew < best_skew))
      best = p, best_skew = skew;
  }
  return best;
}

template <class Pair>
void EditGraph::trace_back(Point to, Pair pair) const {
  std::int64_t k = to.x - to.y;
  std::int64_t x = to.x;
  for (std::int64_t d = to.d;; --d) {
    const Entry entry = enter(d, k);
    for (; x > entry.x; --x) pair(x - 1, x - 1 - k);
    if (d == 0) return;
    k = entry.from_k;
    x = entry.from_x;
  }
}

/// Half-open stretches of a and b still to align.
struct Range {
  std::size_t a0, a1, b0, b1;
  bool empty() const { return a0 == a1 || b0 == b1; }
};

class Aligner {
 public:
  Aligner(Keys a, Keys b) : a_(a), b_(b), pairs_(a.size(), kUnpaired) {}
  std::vector<std::size_t> run();

 private:
  Range trim(Range r);
  bool diff(Range r, std::int64_t max_edits, Point* reached);
  void diff_in_rounds(Range r);
  Pairs anchors(Range r) const;

  Keys a_, b_;
  std::vector<std::size_t> pairs_;
};

std::vector<std::size_t> Aligner::run() {
  const Range all = trim({0, a_.size(), 0, b_.size()});
  if (all.empty() || diff(all, kEditBudget, nullptr)) return std::move(pairs_);
  // Too many edits for an exact diff: pair the unique anchors, then align each stretch between them.
  Range gap{all.a0, all.a1, all.b0, all.b1};
  for (const auto& [i, j] : anchors(all)) {
    pairs_[i] = j;
    diff_in_rounds({gap.a0, i, gap.b0, j});
    gap.a0 = i + 1;
    gap.b0 = j + 1;
  }
  diff_in_rounds(gap);
  return std::move(pairs_);
}

// Pairs the common prefix and suffix of the range; returns what is left between them.
Range Aligner::trim(Range r) {
  while (r.a0 < r.a1 && r.b0 < r.b1 && a_[r.a0] == b_[r.b0]) pairs_[r.a0++] = r.b0++;
  while (r.a0 < r.a1 && r.b0 < r.b1 && a_[r.a1 - 1] == b_[r.b1 - 1]) pairs_[--r.a1] = --r.b1;
  return r;
}

// Myers on the range with at most `max_edits` edits. Reaching the end pairs the whole range and returns true; else,
// with `reached` given, pairs the path to the furthest point and stores that point (relative to the range).
bool Aligner::diff(Range r, std::int64_t max_edits, Point* reached) {
  EditGraph graph(a_.subspan(r.a0, r.a1 - r.a0), b_.subspan(r.b0, r.b1 - r.b0));
  const bool complete = graph.search(max_edits);
  if (!complete && reached == nullptr) return false;
  const Point last = graph.last_point();
  graph.trace_back(last, [&](std::int64_t x, std::int64_t y) {
    pairs_[r.a0 + static_cast<std::size_t>(x)] = r.b0 + static_cast<std::size_t>(y);
  });
  if (reached != nullptr) *reached = last;
  return complete;
}

// Aligns a stretch whatever its edit count: each round keeps the best path within kRoundEdits, then goes on from its
// end. Each round moves at least kRoundEdits elements forward (every edit consumes one), so the rounds end.
void Aligner::diff_in_rounds(Range r) {
  for (r = trim(r); !r.empty(); r = trim(r)) {
    Point reached;
    if (diff(r, kRoundEdits, &reached)) return;
    r.a0 += static_cast<std::size_t>(reached.x);
    r.b0 += static_cast<std::size_t>(reached.y);
  }
}

// The longest chain of `pairs` (sorted by their first) whose seconds grow too: patience sorting, O(P log P).
Pairs longest_increasing_chain(const Pairs& pairs) {
  std::vector<std::size_t> tails;                            // tails[l]: the pair ending the best chain of l + 1
  std::vector<std::size_t> before(pairs.size(), kUnpaired);  // the previous pair in each pair's chain
  for (std::size_t u = 0; u < pairs.size(); ++u) {
    const auto slot = std::lower_bound(tails.begin(), tails.end(), pairs[u].second,
                                       [&](std::size_t t, std::size_t second) { return pairs[t].second < second; });
    if (slot != tails.begin()) before[u] = *(slot - 1);
    if (slot == tails.end())
      tails.push_back(u);
    else
      *slot = u;
  }
  Pairs chain;
  for (std::size_t u = tails.empty() ? kUnpaired : tails.back(); u != kUnpaired; u = before[u])
    chain.push_back(pairs[u]);
  std::reverse(chain.begin(), chain.end());
  return chain;
}

// Keys that occur once in each side of the range, at positions in the same order in both. A key unique in both runs
// is almost always the same launch (an initialisation, a final reduction); the chain drops the crossing ones.
Pairs Aligner::anchors(Range r) const {
  struct Seen {
    std::size_t in_a = 0, in_b = 0, at_a = 0, at_b = 0;
  };
  std::unordered_map<Key, Seen> seen;
  for (std::size_t i = r.a0; i < r.a1; ++i) {
    Seen& s = seen[a_[i]];
    ++s.in_a;
    s.at_a = i;
  }
  for (std::size_t j = r.b0; j < r.b1; ++j) {
    Seen& s = seen[b_[j]];
    ++s.in_b;
    s.at_b = j;
  }
  Pairs unique;
  for (const auto& entry : seen)
    if (entry.second.in_a == 1 && entry.second.in_b == 1) unique.emplace_back(entry.second.at_a, entry.second.at_b);
  std::sort(unique.begin(), unique.end());
  return longest_increasing_chain(unique);
}

}  // namespace

std::vector<std::size_t> align_sequences(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b) {
  return Aligner(a, b).run();
}

}  // namespace warpsim::trace

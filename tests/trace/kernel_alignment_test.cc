// The alignment of two runs' launches: a common subsequence (equal keys, no crossing), the longest one while the runs
// differ by few edits, and sane, fast and memory-bounded beyond that.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "kernel_alignment.h"

namespace warpsim::trace {
namespace {

using Keys = std::vector<std::uint32_t>;

// Pairs must join equal keys, each element of b at most once, in the order of both sequences.
void expect_common_subsequence(const Keys& a, const Keys& b, const std::vector<std::size_t>& pairs) {
  ASSERT_EQ(pairs.size(), a.size());
  std::size_t last = kUnpaired;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (pairs[i] == kUnpaired) continue;
    ASSERT_LT(pairs[i], b.size());
    EXPECT_EQ(a[i], b[pairs[i]]) << "a[" << i << "]";
    if (last != kUnpaired) {
      EXPECT_GT(pairs[i], last) << "a[" << i << "] crosses an earlier pair";
    }
    last = pairs[i];
  }
}

std::size_t paired(const std::vector<std::size_t>& pairs) {
  return static_cast<std::size_t>(
      std::count_if(pairs.begin(), pairs.end(), [](std::size_t j) { return j != kUnpaired; }));
}

// The textbook O(NM) dynamic programme, for small sequences.
std::size_t lcs_length(const Keys& a, const Keys& b) {
  std::vector<std::vector<std::size_t>> best(a.size() + 1, std::vector<std::size_t>(b.size() + 1, 0));
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j)
      best[i][j] = a[i - 1] == b[j - 1] ? best[i - 1][j - 1] + 1 : std::max(best[i - 1][j], best[i][j - 1]);
  return best[a.size()][b.size()];
}

// A loop body of `period` kernels repeated: the shape of an iterative solver or a training step.
Keys loop(std::size_t length, std::uint32_t period) {
  Keys keys(length);
  for (std::size_t i = 0; i < length; ++i) keys[i] = static_cast<std::uint32_t>(i % period);
  return keys;
}

TEST(KernelAlignment, IdenticalSequencesPairEveryElementInPlace) {
  const Keys a = loop(1000, 7);
  const auto pairs = align_sequences(a, a);
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(pairs[i], i);
}

TEST(KernelAlignment, EmptySidesPairNothing) {
  EXPECT_TRUE(align_sequences({}, loop(5, 2)).empty());
  EXPECT_EQ(align_sequences(loop(5, 2), {}), std::vector<std::size_t>(5, kUnpaired));
}

TEST(KernelAlignment, AReplacedStretchLeavesBothSidesUnpaired) {
  // 0 1 [7 7] 2 3 against 0 1 [8 8 8] 2 3: the 8s replace the 7s.
  const Keys a{0, 1, 7, 7, 2, 3};
  const Keys b{0, 1, 8, 8, 8, 2, 3};
  EXPECT_EQ(align_sequences(a, b), (std::vector<std::size_t>{0, 1, kUnpaired, kUnpaired, 5, 6}));
}

TEST(KernelAlignment, SmallRandomSequencesGetALongestCommonSubsequence) {
  std::mt19937 random(42);
  for (int trial = 0; trial < 300; ++trial) {
    std::uniform_int_distribution<std::size_t> length(0, 40);
    std::uniform_int_distribution<std::uint32_t> key(0, 3);
    Keys a(length(random)), b(length(random));
    for (auto& k : a) k = key(random);
    for (auto& k : b) k = key(random);
    const auto pairs = align_sequences(a, b);
    expect_common_subsequence(a, b, pairs);
    EXPECT_EQ(paired(pairs), lcs_length(a, b)) << "trial " << trial;
  }
}

TEST(KernelAlignment, ScatteredEditsWithinTheBudgetAreExact) {
  // 100k launches, 300 of them replaced by another kernel: 600 edits, one exact diff.
  const Keys a = loop(100'000, 5);
  Keys b = a;
  for (std::size_t i = 100; i < b.size(); i += 333) b[i] = 99;
  const auto pairs = align_sequences(a, b);
  expect_common_subsequence(a, b, pairs);
  for (std::size_t i = 0; i < a.size(); ++i)
    if (b[i] != 99) {
      EXPECT_EQ(pairs[i], i) << i;
    }
}

TEST(KernelAlignment, ManyMoreEditsThanTheBudgetStillPairTheUnchangedLaunches) {
  // Every iteration of a 10-kernel loop picks another FFT (2 kernels in one run, 3 in the other): 10k iterations,
  // 50k edits, no key unique in both runs, so no anchors: rounds of bounded diffs.
  Keys a, b;
  for (std::uint32_t iteration = 0; iteration < 10'000; ++iteration) {
    for (std::uint32_t k = 0; k < 8; ++k) a.push_back(k), b.push_back(k);
    a.insert(a.end(), {100, 100});
    b.insert(b.end(), {200, 200, 200});
  }
  const auto pairs = align_sequences(a, b);
  expect_common_subsequence(a, b, pairs);
  EXPECT_EQ(paired(pairs), 80'000u) << "every loop kernel, no FFT";
  EXPECT_EQ(pairs[a.size() - 3], b.size() - 4) << "the last loop kernel of a pairs with the last of b";
}

TEST(KernelAlignment, ALongInsertionIsFoundThroughUniqueAnchors) {
  // Launches numbered 0..99999 (all unique); b has 5000 others inserted in the middle, beyond any bounded diff.
  Keys a(100'000);
  for (std::uint32_t i = 0; i < a.size(); ++i) a[i] = i;
  Keys b(a.begin(), a.begin() + 50'000);
  for (std::uint32_t i = 0; i < 5000; ++i) b.push_back(1'000'000 + i);
  b.insert(b.end(), a.begin() + 50'000, a.end());
  b[10] = 2'000'000;  // and one change before it, so that the common prefix stops early
  const auto pairs = align_sequences(a, b);
  expect_common_subsequence(a, b, pairs);
  EXPECT_EQ(paired(pairs), a.size() - 1);
  EXPECT_EQ(pairs[50'000], 55'000u);
}

TEST(KernelAlignment, DifferentProgramsPairNothing) {
  Keys a = loop(20'000, 5);
  Keys b = loop(20'000, 5);
  for (auto& k : b) k += 10;
  EXPECT_EQ(paired(align_sequences(a, b)), 0u);
}

}  // namespace
}  // namespace warpsim::trace

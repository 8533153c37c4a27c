#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "analysis/kernel_match.h"
#include "report_test_traces.h"

namespace warpsim::report {
namespace {

using ::testing::HasSubstr;
using testing::launch;
using testing::trace_file;

TraceKernels read(const std::vector<Event>& events) { return read_trace_kernels(trace_file("t.wstrace", events)); }

std::string mismatch(const std::vector<Event>& a, const std::vector<Event>& b) {
  try {
    match_kernels(read(a), read(b));
  } catch (const KernelMismatch& error) {
    return error.what();
  }
  return "no mismatch";
}

TEST(KernelMatch, PairsByStreamAndLaunchOrderWhateverTheFileOrder) {
  // A writes stream 13 first and its kernels out of launch order; B interleaves the streams and runs them at other
  // times. Pairs must follow (device, stream) and correlation ids, not file order or start times.
  const TraceKernels a =
      read({launch(0, 13, "pack", 4, 500, 10), launch(0, 7, "second", 3, 300, 30), launch(0, 7, "first", 1, 100, 20),
            launch(0, 13, "unpack", 5, 600, 40), launch(1, 7, "first", 2, 100, 50)});
  const TraceKernels b = read({launch(0, 7, "first", 1, 9'000, 21), launch(1, 7, "first", 2, 9'000, 51),
                               launch(0, 13, "pack", 4, 8'000, 11), launch(0, 7, "second", 3, 7'000, 31),
                               launch(0, 13, "unpack", 5, 1'000, 41)});
  const std::vector<KernelPair> pairs = match_kernels(a, b);
  ASSERT_EQ(pairs.size(), 5u);
  const std::vector<std::tuple<std::uint32_t, std::uint32_t, std::size_t, std::string, std::uint64_t, std::uint64_t>>
      expected = {{0, 7, 0, "first", 20, 21},
                  {0, 7, 1, "second", 30, 31},
                  {0, 13, 0, "pack", 10, 11},
                  {0, 13, 1, "unpack", 40, 41},
                  {1, 7, 0, "first", 50, 51}};
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const auto& [device, stream, index, name, a_ns, b_ns] = expected[i];
    SCOPED_TRACE(i);
    EXPECT_EQ(pairs[i].stream, (StreamKey{device, stream}));
    EXPECT_EQ(pairs[i].index, index);
    EXPECT_EQ(pairs[i].a->name, name);
    EXPECT_EQ(pairs[i].b->name, name);
    EXPECT_EQ(pairs[i].a->duration_ns(), a_ns);
    EXPECT_EQ(pairs[i].b->duration_ns(), b_ns);
  }
}

TEST(KernelMatch, FallsBackToStartTimeWithoutCorrelationIds) {
  const TraceKernels a = read({launch(0, 7, "late", 0, 900, 1), launch(0, 7, "early", 0, 100, 1)});
  ASSERT_EQ(a.streams.at({0, 7}).size(), 2u);
  EXPECT_EQ(a.streams.at({0, 7})[0].name, "early");
  EXPECT_EQ(a.streams.at({0, 7})[1].name, "late");
}

TEST(KernelMatch, NamesTheFirstNameMismatch) {
  const std::string message = mismatch(
      {launch(0, 7, "_Z5firstv", 1, 0, 1), launch(0, 7, "_Z6secondv", 2, 10, 1), launch(0, 7, "_Z5thirdv", 3, 20, 1)},
      {launch(0, 7, "_Z5firstv", 1, 0, 1), launch(0, 7, "_Z5otherv", 2, 10, 1), launch(0, 7, "_Z5thirdv", 3, 20, 1)});
  EXPECT_EQ(message, "traces differ at GPU 0 stream 7 kernel 1: A launched second, B launched other");
}

TEST(KernelMatch, ShowsFullNamesWhenShortOnesAgree) {
  const std::string message = mismatch({launch(0, 7, "_Z1kPf", 1, 0, 1)}, {launch(0, 7, "_Z1kPi", 1, 0, 1)});
  EXPECT_THAT(message, HasSubstr("A launched _Z1kPf, B launched _Z1kPi"));
}

TEST(KernelMatch, NamesACountMismatch) {
  const std::string message =
      mismatch({launch(0, 7, "k", 1, 0, 1), launch(0, 7, "k", 2, 10, 1), launch(0, 7, "tail", 3, 20, 1)},
               {launch(0, 7, "k", 1, 0, 1), launch(0, 7, "k", 2, 10, 1)});
  EXPECT_EQ(message,
            "traces differ at GPU 0 stream 7: A launched 3 kernels, B 2; kernel 2 (tail) of A has no counterpart in B");
}

TEST(KernelMatch, NamesAMissingStream) {
  const std::string message =
      mismatch({launch(0, 7, "k", 1, 0, 1)}, {launch(0, 7, "k", 1, 0, 1), launch(1, 3, "extra", 2, 0, 1)});
  EXPECT_EQ(message, "traces differ at GPU 1 stream 3: B launched 1 kernels there (first: extra), A none");
}

TEST(KernelMatch, CollectsSpanAndKernelTime) {
  const TraceKernels a = read({launch(0, 7, "k", 1, 1'000, 100), testing::copy_event(Memcpy::HTOD, 8, 0, 7, 500, 50),
                               launch(1, 7, "k", 2, 1'050, 100)});
  EXPECT_EQ(a.kernels, 2u);
  EXPECT_EQ(a.kernel_time_ns, 200u);
  EXPECT_EQ(*a.first_ns, 500u);
  EXPECT_EQ(*a.last_ns, 1'150u);
}

}  // namespace
}  // namespace warpsim::report

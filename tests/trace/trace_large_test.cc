// Reading needs memory bounded by the largest record, not by the file: a 160 MiB trace is read with a small,
// fixed increase of the peak resident set.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include "sample_trace.h"
#include "trace_reader.h"
#include "trace_writer.h"

namespace warpsim {
namespace {

std::uint64_t peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

TEST(TraceLarge, ReadingAHugeTraceUsesBoundedMemory) {
  constexpr std::uint64_t kTargetBytes = 160ull << 20;
  const auto path = testing::fresh_temp_dir() / "large.wstrace";
  std::uint64_t written = 0;
  {
    TraceWriter writer(path, testing::two_gpu_header());
    Event kernel = testing::kernel_event(0, 1, "_Z17a_large_trace_kernelPfS_S_i", 0, 1000);
    *kernel.mutable_kernel()->mutable_counters() = testing::sample_counters(1 << 20);
    while (writer.bytes_written() < kTargetBytes) {
      kernel.mutable_kernel()->set_start_ns(written * 2000);
      kernel.mutable_kernel()->set_end_ns(written * 2000 + 1000);
      kernel.mutable_kernel()->set_stream_id(static_cast<std::uint32_t>(written % 8));
      writer.write(kernel);
      ++written;
    }
    writer.close();
  }
  ASSERT_GE(std::filesystem::file_size(path), kTargetBytes);

  const std::uint64_t before = peak_rss_bytes();
  TraceReader reader(path);
  Event event;
  std::uint64_t read = 0;
  std::uint64_t last_start = 0;
  while (reader.next(event)) {
    last_start = event.kernel().start_ns();
    ++read;
  }
  const std::uint64_t growth = peak_rss_bytes() - before;

  EXPECT_EQ(read, written);
  EXPECT_EQ(last_start, (written - 1) * 2000);
  EXPECT_FALSE(reader.truncation().has_value());
  EXPECT_LT(growth, 16ull << 20) << "peak RSS grew by " << (growth >> 20) << " MiB reading a "
                                 << (std::filesystem::file_size(path) >> 20) << " MiB trace";
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace warpsim

// A trace cut anywhere (an application killed while recording) yields every complete event before the cut.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "raw_trace.h"
#include "read_all.h"
#include "sample_trace.h"
#include "trace_error.h"
#include "trace_format.h"
#include "trace_writer.h"

namespace warpsim {
namespace {

using ::testing::HasSubstr;

TEST(TraceTruncation, EveryCutPointReadsTheCompleteEventsBeforeIt) {
  const std::vector<Event> events = {testing::kernel_event(0, 1, "first", 0, 10),
                                     testing::copy_event(Memcpy::PTOP, 64, 0, 2, 5, 10),
                                     testing::marker_event("m", 1, 2), testing::kernel_event(1, 1, "last", 20, 10)};
  const std::string bytes = testing::trace_bytes(testing::two_gpu_header(), events);
  const std::vector<std::size_t> offsets = testing::record_offsets(bytes);
  const std::size_t header_end = offsets.at(1);

  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    SCOPED_TRACE("cut at " + std::to_string(cut));
    const std::string prefix = bytes.substr(0, cut);
    if (cut < header_end) {
      EXPECT_THROW(testing::read_all(prefix), TraceError);  // nothing is usable without the header
      continue;
    }
    const testing::ReadResult result = testing::read_all(prefix);
    // Records that end at or before the cut are complete.
    std::size_t expected = 0;
    for (std::size_t i = 1; i < offsets.size(); ++i) {
      const std::size_t end = i + 1 < offsets.size() ? offsets[i + 1] : bytes.size() - trace_format::kTrailerBytes;
      if (end <= cut) ++expected;
    }
    ASSERT_EQ(result.events.size(), expected);
    ASSERT_TRUE(result.truncation.has_value());
    EXPECT_LE(result.truncation->offset, cut);
  }
}

TEST(TraceTruncation, WarningNamesOffsetAndSaysTruncated) {
  const std::string bytes = testing::trace_bytes(testing::two_gpu_header(), testing::sample_events());
  const std::size_t last = testing::record_offsets(bytes).back();
  TraceReader reader = testing::memory_reader(bytes.substr(0, last + 3), "killed.wstrace");
  Event event;
  std::size_t read = 0;
  while (reader.next(event)) ++read;
  EXPECT_EQ(read, testing::sample_events().size() - 1);
  const std::string warning = reader.truncation_warning();
  EXPECT_THAT(warning, HasSubstr("killed.wstrace: offset " + std::to_string(last)));
  EXPECT_THAT(warning, HasSubstr("truncated"));
  EXPECT_THAT(warning, HasSubstr(std::to_string(read) + " complete events"));
}

TEST(TraceTruncation, FlushedButUnclosedWriterLeavesAReadableTrace) {
  const auto path = testing::fresh_temp_dir() / "live.wstrace";
  TraceWriter writer(path, testing::two_gpu_header());
  writer.write(testing::kernel_event(0, 1, "a", 0, 1));
  writer.write(testing::kernel_event(0, 1, "b", 2, 1));
  writer.flush();
  writer.write(testing::kernel_event(0, 1, "buffered, not yet flushed", 4, 1));

  EXPECT_FALSE(std::filesystem::exists(path));  // the trace appears whole or not at all
  TraceReader reader(writer.temporary_path());  // as if the process had been killed now: what it flushed is there
  Event event;
  std::vector<std::string> names;
  while (reader.next(event)) names.push_back(event.kernel().name());
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b"}));
  ASSERT_TRUE(reader.truncation().has_value());
  EXPECT_THAT(reader.truncation()->reason, HasSubstr("trailer"));
}

}  // namespace
}  // namespace warpsim

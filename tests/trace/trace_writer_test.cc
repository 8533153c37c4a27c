#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "full_disk.h"
#include "raw_trace.h"
#include "read_all.h"
#include "sample_trace.h"
#include "trace_error.h"
#include "trace_format.h"
#include "trace_writer.h"

namespace warpsim {
namespace {

using ::testing::HasSubstr;

TEST(TraceWriter, RefusesAnEventNamingAnUndeclaredDevice) {
  TraceWriter writer(testing::fresh_temp_dir() / "t.wstrace", testing::two_gpu_header());
  try {
    writer.write(testing::kernel_event(2, 1, "k", 0, 1));
    FAIL();
  } catch (const TraceError& error) {
    EXPECT_THAT(error.problem(), HasSubstr("device 2"));
  }
  EXPECT_EQ(writer.events_written(), 0u);
}

TEST(TraceWriter, RefusesAnInconsistentHeader) {
  TraceHeader header = testing::two_gpu_header();
  header.mutable_devices(1)->set_id(0);
  EXPECT_THROW(TraceWriter(testing::fresh_temp_dir() / "t.wstrace", header), TraceError);
}

TEST(TraceWriter, CannotCreateNamesThePath) {
  try {
    TraceWriter writer("/no/such/dir/out.wstrace", testing::two_gpu_header());
    FAIL();
  } catch (const TraceError& error) {
    EXPECT_EQ(error.file(), "/no/such/dir/out.wstrace");
    EXPECT_THAT(error.problem(), HasSubstr("cannot create"));
  }
}

TEST(TraceWriter, WriteFailureIsReportedNotFatal) {
  const auto path = testing::fresh_temp_dir() / "t.wstrace";
  testing::write_file(path, "an older trace");
  const testing::FileSizeLimit full_disk(8);  // 8 bytes: the prelude fits, nothing more
  TraceWriter writer(path, testing::two_gpu_header());
  writer.write(testing::kernel_event(0, 1, "k", 0, 1));  // buffered
  EXPECT_THROW(writer.flush(), TraceError);
  EXPECT_THROW(writer.close(), TraceError);
  EXPECT_NO_THROW(writer.close());  // closed once, even though it failed
  EXPECT_EQ(testing::read_file(path), "an older trace");
  EXPECT_EQ(testing::files_in(path.parent_path()), 1u);  // no temporary file left
}

TEST(TraceWriter, ATraceAppearsOnlyWhenClosed) {
  const auto path = testing::fresh_temp_dir() / "t.wstrace";
  testing::write_file(path, "an older trace");
  {
    TraceWriter writer(path, testing::two_gpu_header());
    writer.write(testing::kernel_event(0, 1, "k", 0, 1));
    writer.flush();
    EXPECT_EQ(testing::read_file(path), "an older trace");
  }  // destroyed without close(): an error path
  EXPECT_EQ(testing::read_file(path), "an older trace");
  EXPECT_EQ(testing::files_in(path.parent_path()), 1u);
  TraceWriter writer(path, testing::two_gpu_header());
  writer.write(testing::kernel_event(0, 1, "k", 0, 1));
  writer.close();
  EXPECT_EQ(testing::read_file(path),
            testing::trace_bytes(testing::two_gpu_header(), {testing::kernel_event(0, 1, "k", 0, 1)}));
}

TEST(TraceWriter, FileLayoutMatchesTheDocumentedFormat) {
  const std::string bytes = testing::trace_bytes(testing::two_gpu_header(), {testing::kernel_event(0, 1, "k", 0, 1)});
  EXPECT_EQ(bytes.substr(0, 8), trace_format::kMagic);
  EXPECT_EQ(bytes.substr(8, 4), std::string("\x02\x00\x00\x00", 4));
  EXPECT_EQ(bytes.substr(bytes.size() - 16), std::string("\x89WSTREND\x01\x00\x00\x00\x00\x00\x00\x00", 16));
  const auto offsets = testing::record_offsets(bytes);
  ASSERT_EQ(offsets.size(), 2u);
  Record header_record;
  // Skip the record's length (two bytes for a header this size), parse it as a Record, check the checksum after it.
  const std::string header_bytes = bytes.substr(offsets[0] + 2, offsets[1] - offsets[0] - 2 - 4);
  ASSERT_TRUE(header_record.ParseFromString(header_bytes));
  EXPECT_EQ(bytes.substr(offsets[1] - 4, 4), testing::checksum_bytes(header_bytes));
  EXPECT_TRUE(header_record.has_header());
  EXPECT_EQ(header_record.header().schema_version(), trace_format::kFormatVersion);
}

}  // namespace
}  // namespace warpsim

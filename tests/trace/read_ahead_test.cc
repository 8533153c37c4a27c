// Reading ahead on a second thread gives the same items, in order, with failures where they happened, and stops
// cleanly when its user stops early.
#include "read_ahead.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sample_trace.h"
#include "trace_error.h"
#include "trace_read_ahead.h"
#include "trace_reader.h"

namespace warpsim {
namespace {

using ::testing::HasSubstr;

// Counts 0, 1, 2, ... up to `count` items; throws at `fail_at` when set.
ReadAhead<long>::Fill counter(long count, long fail_at = -1) {
  auto next = std::make_shared<long>(0);
  return [next, count, fail_at](long& item) {
    if (*next == fail_at) throw std::runtime_error("item " + std::to_string(fail_at) + " is bad");
    if (*next == count) return false;
    item = (*next)++;
    return true;
  };
}

TEST(ReadAhead, GivesEveryItemInOrderOverManyBatches) {
  ReadAhead<long> ahead(counter(10'000));
  long expected = 0;
  while (const long* item = ahead.next()) ASSERT_EQ(*item, expected++);
  EXPECT_EQ(expected, 10'000);
  EXPECT_EQ(ahead.next(), nullptr);  // and stays at the end
}

TEST(ReadAhead, NothingToReadGivesNothing) {
  ReadAhead<long> ahead(counter(0));
  EXPECT_EQ(ahead.next(), nullptr);
}

TEST(ReadAhead, RethrowsAFailureAfterTheItemsBeforeIt) {
  ReadAhead<long> ahead(counter(10'000, 3'000));
  long taken = 0;
  try {
    while (ahead.next()) ++taken;
    FAIL() << "the failure was not rethrown";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("item 3000 is bad"));
  }
  EXPECT_EQ(taken, 3'000);
}

TEST(ReadAhead, StopsWhenItsUserStopsEarly) {
  std::atomic<long> filled{0};
  {
    ReadAhead<long> ahead([&filled](long& item) {
      item = filled++;
      return true;  // never ends: the destructor must stop it
    });
    for (int i = 0; i < 10; ++i) ASSERT_NE(ahead.next(), nullptr);
  }
  EXPECT_LT(filled.load(), 100'000);  // bounded: it waited for its user rather than reading on
}

TEST(ReadAhead, FillsTheMemoryOfItemsAlreadyTaken) {
  std::atomic<bool> reused{false};
  ReadAhead<std::vector<int>> ahead([&reused, left = 100'000](std::vector<int>& item) mutable {
    if (item.capacity() > 0) reused = true;  // an earlier item's memory, handed back
    item.assign(4, left);
    return --left > 0;
  });
  while (ahead.next()) {
  }
  EXPECT_TRUE(reused);
}

class TraceReadAheadTest : public ::testing::Test {
 protected:
  std::filesystem::path dir_ = testing::fresh_temp_dir();
  std::vector<Event> events_;
  std::filesystem::path write(std::size_t count) {
    for (std::size_t i = 0; i < count; ++i)
      events_.push_back(testing::kernel_event(i % 2, 7, "k" + std::to_string(i), 100 * i, 50));
    const std::filesystem::path path = dir_ / "t.wstrace";
    testing::write_trace(path, testing::two_gpu_header(), events_);
    return path;
  }
};

TEST_F(TraceReadAheadTest, ReadsWhatTheReaderReads) {
  const std::filesystem::path path = write(3'000);
  TraceReadAhead ahead(path);
  EXPECT_EQ(ahead.header().devices_size(), 2);
  Event event;
  std::size_t read = 0;
  while (ahead.next(event)) {
    ASSERT_EQ(event.SerializeAsString(), events_.at(read).SerializeAsString()) << "event " << read;
    ++read;
  }
  EXPECT_EQ(read, events_.size());
  EXPECT_FALSE(ahead.finished_reader().truncation().has_value());
}

TEST_F(TraceReadAheadTest, ACutTraceGivesItsCompleteEventsThenSaysWhere) {
  const std::filesystem::path path = write(3'000);
  std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
  TraceReadAhead ahead(path);
  Event event;
  std::size_t read = 0;
  while (ahead.next(event)) ++read;
  EXPECT_GT(read, 1'000u);
  EXPECT_LT(read, 2'000u);
  ASSERT_TRUE(ahead.finished_reader().truncation().has_value());
  EXPECT_THAT(ahead.finished_reader().truncation_warning(), HasSubstr("t.wstrace"));
}

TEST_F(TraceReadAheadTest, DamageIsThrownWhereItIs) {
  const std::filesystem::path path = write(3'000);
  {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(static_cast<std::streamoff>(std::filesystem::file_size(path) / 2));
    file.put('\xff');
  }
  TraceReadAhead ahead(path);
  Event event;
  std::size_t read = 0;
  EXPECT_THROW(
      {
        while (ahead.next(event)) ++read;
      },
      TraceError);
  EXPECT_GT(read, 1'000u);
}

}  // namespace
}  // namespace warpsim

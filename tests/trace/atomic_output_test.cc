#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "atomic_output.h"
#include "full_disk.h"
#include "sample_trace.h"

namespace warpsim {
namespace {

using ::testing::HasSubstr;

TEST(AtomicOutputFile, TheTargetChangesOnlyAtCommitAndNothingElseRemains) {
  const auto dir = testing::fresh_temp_dir();
  const auto target = dir / "out.json";
  testing::write_file(target, "old");
  AtomicOutputFile file(target);
  file.stream() << "new contents";
  file.write("!", 1);
  EXPECT_EQ(testing::read_file(target), "old");
  EXPECT_EQ(file.temporary().parent_path(), dir);  // beside the target, not in a shared directory
  file.commit();
  EXPECT_EQ(testing::read_file(target), "new contents!");
  EXPECT_EQ(testing::files_in(dir), 1u);
}

TEST(AtomicOutputFile, WithoutCommitTheTargetIsUntouchedAndTheTemporaryRemoved) {
  const auto dir = testing::fresh_temp_dir();
  const auto target = dir / "out.csv";
  testing::write_file(target, "old");
  {
    AtomicOutputFile file(target);
    file.stream() << "half of it";
  }  // an exception would end here too
  EXPECT_EQ(testing::read_file(target), "old");
  EXPECT_EQ(testing::files_in(dir), 1u);
  { AtomicOutputFile file(dir / "new.csv"); }
  EXPECT_FALSE(std::filesystem::exists(dir / "new.csv"));
}

TEST(AtomicOutputFile, AFullDiskFailsTheCommitAndKeepsTheOldFile) {
  const auto dir = testing::fresh_temp_dir();
  const auto target = dir / "out.csv";
  testing::write_file(target, "old");
  const testing::FileSizeLimit full_disk(100);
  AtomicOutputFile file(target);
  for (int i = 0; i < 100000; ++i) file.stream() << "row " << i << '\n';  // the stream keeps the first error
  try {
    file.commit();
    FAIL() << "expected an OutputError";
  } catch (const OutputError& error) {
    EXPECT_THAT(error.what(), HasSubstr(target.string()));
    EXPECT_THAT(error.what(), HasSubstr("write failed"));
  }
  EXPECT_EQ(testing::read_file(target), "old");
}

TEST(AtomicOutputFile, ADirectWriteToAFullDiskThrowsAtOnce) {
  const auto dir = testing::fresh_temp_dir();
  const testing::FileSizeLimit full_disk(10);
  AtomicOutputFile file(dir / "out.bin");
  const std::string bytes(4096, 'x');
  EXPECT_THROW(file.write(bytes.data(), bytes.size()), OutputError);
}

TEST(AtomicOutputFile, ATargetWithTheLongestNameStillGetsItsTemporary) {
  const auto dir = testing::fresh_temp_dir();
  const std::string longest(255, 'n');
  AtomicOutputFile file(dir / longest);
  file.stream() << "x";
  file.commit();
  EXPECT_EQ(testing::read_file(dir / longest), "x");
}

TEST(AtomicOutputFile, TakesTheUmaskAsAnyNewFile) {
  const auto dir = testing::fresh_temp_dir();
  const mode_t old_mask = ::umask(027);
  {
    AtomicOutputFile file(dir / "out.txt");
    file.commit();
  }
  ::umask(old_mask);
  struct stat status {};
  ASSERT_EQ(::stat((dir / "out.txt").c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777, 0640u);
}

TEST(AtomicOutputFile, RefusesADirectoryOrAFifoAsTarget) {
  const auto dir = testing::fresh_temp_dir();
  EXPECT_THROW(AtomicOutputFile{dir}, OutputError);
  const auto fifo = dir / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  try {
    AtomicOutputFile file(fifo);
    FAIL() << "expected an OutputError";
  } catch (const OutputError& error) {
    EXPECT_THAT(error.what(), HasSubstr("not a regular file"));
  }
  EXPECT_THROW(AtomicOutputFile(dir / "no such dir" / "out.txt"), OutputError);
}

TEST(AtomicOutputFile, ASymbolicLinkAtTheTargetIsReplacedNotFollowed) {
  const auto dir = testing::fresh_temp_dir();
  testing::write_file(dir / "victim", "someone else's file");
  std::filesystem::create_symlink(dir / "victim", dir / "out.txt");
  AtomicOutputFile file(dir / "out.txt");
  file.stream() << "mine";
  file.commit();
  EXPECT_EQ(testing::read_file(dir / "victim"), "someone else's file");
  EXPECT_FALSE(std::filesystem::is_symlink(dir / "out.txt"));
  EXPECT_EQ(testing::read_file(dir / "out.txt"), "mine");
}

TEST(AtomicOutputFile, ADeadProcesssTemporaryIsFoundBesideItsTarget) {
  const auto dir = testing::fresh_temp_dir();
  auto file = std::make_unique<AtomicOutputFile>(dir / "t.wstrace");
  file->stream() << "flushed" << std::flush;
  const auto temporary = file->temporary();
  EXPECT_EQ(leftover_temporaries(dir / "t.wstrace", ::getpid()), std::vector{temporary});
  EXPECT_TRUE(leftover_temporaries(dir / "t.wstrace", ::getpid() + 1).empty());
  EXPECT_TRUE(leftover_temporaries(dir / "other.wstrace", ::getpid()).empty());
}

TEST(RefuseOutputsOverInputs, TheSameFileUnderAnyNameIsRefused) {
  const auto dir = testing::fresh_temp_dir();
  const auto input = dir / "in.wstrace";
  testing::write_file(input, "trace");
  std::filesystem::create_hard_link(input, dir / "hard");
  std::filesystem::create_symlink(input, dir / "soft");
  for (const auto& output : {input, dir / "hard", dir / "soft", dir / "." / "in.wstrace"}) {
    EXPECT_THROW(refuse_outputs_over_inputs({output}, {input}), OutputError) << output;
  }
  try {
    refuse_outputs_over_inputs({dir / "soft"}, {dir / "other", input});
    FAIL() << "expected an OutputError";
  } catch (const OutputError& error) {
    EXPECT_THAT(error.what(), HasSubstr("is an input of this command"));
  }
  EXPECT_NO_THROW(refuse_outputs_over_inputs({dir / "new.json"}, {input, dir / "missing"}));
  EXPECT_THROW(refuse_outputs_over_inputs({dir / "a.csv", dir / "a.csv"}, {input}), OutputError);
}

}  // namespace
}  // namespace warpsim

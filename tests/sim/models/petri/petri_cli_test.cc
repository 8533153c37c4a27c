// `warpsim petri export` as users run it: the binary, a shipped trace, the PNML it writes, and its errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "sample_trace.h"

namespace warpsim {
namespace {

using ::testing::HasSubstr;

struct CommandResult {
  int exit_status = -1;  // -1: killed by a signal
  std::string out;
  std::string err;
};

CommandResult run_warpsim(const std::string& arguments) {
  const auto dir = testing::fresh_temp_dir();
  const std::string command =
      std::string(WARPSIM_BINARY) + " " + arguments + " >" + (dir / "out").string() + " 2>" + (dir / "err").string();
  const int status = std::system(command.c_str());
  CommandResult result;
  result.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = testing::read_file(dir / "out");
  result.err = testing::read_file(dir / "err");
  return result;
}

std::string radix_trace() {
  return std::string(WARPSIM_TEST_DATA) + "/../../workloads/traces/H100-80GB-HBM3/radix_sort.merged.wstrace";
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(PetriCli, ExportsThePaperNetOfOneSmToStdout) {
  // radix_shared_split_block: 4096 blocks of 256 threads, 8 per SM: a full wave of 64 warps.
  const CommandResult r = run_warpsim("petri export " + radix_trace() + " radix_shared_split_block --format pnml");
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("<pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\">"));
  EXPECT_THAT(r.out, HasSubstr("radix_shared_split_block"));
  EXPECT_THAT(r.out, HasSubstr("(64 warps), petri-paper on H100-SXM5-80GB"));
  EXPECT_EQ(count(r.out, "<place "), 2u + 18 * 64);
  EXPECT_EQ(count(r.out, "<transition "), 1u + 15 * 64);
  EXPECT_THAT(r.out, HasSubstr("<place id=\"p0\"><name><text>p0</text></name>"));
  EXPECT_THAT(r.out, HasSubstr("<initialMarking><text>4</text></initialMarking>"));  // four schedulers
}

TEST(PetriCli, WritesTheChosenLaunchOfThePlatformVariantToAFile) {
  const auto dir = testing::fresh_temp_dir();
  const std::string out = (dir / "net.pnml").string();
  const CommandResult r =
      run_warpsim("petri export " + radix_trace() + " 'radix_global_scan_sums#31' -m petri -p h200 -o " + out);
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("radix_global_scan_sums"));
  EXPECT_THAT(r.err, HasSubstr("#31: one SM of the first wave (32 warps), petri on H200-SXM-141GB"));
  const std::string xml = testing::read_file(out);
  EXPECT_EQ(count(xml, "<place id=\"w31.p1\">"), 1u);
  EXPECT_THAT(xml, HasSubstr("<place id=\"dram\">"));
}

TEST(PetriCli, NamesWhatIsWrong) {
  CommandResult r = run_warpsim("petri export " + radix_trace() + " no_such_kernel");
  EXPECT_EQ(r.exit_status, 1);
  EXPECT_THAT(r.err, HasSubstr("no kernel launch 'no_such_kernel#0' (0 launches match 'no_such_kernel')"));
  r = run_warpsim("petri export " + radix_trace() + " 'radix_global_flags#32'");
  EXPECT_EQ(r.exit_status, 1);
  EXPECT_THAT(r.err, HasSubstr("(32 launches match 'radix_global_flags')"));
  r = run_warpsim("petri export " + radix_trace() + " 'radix#x'");
  EXPECT_THAT(r.err, HasSubstr("expected NAME or NAME#N"));
  r = run_warpsim("petri export " + radix_trace() + " radix -m roofline");
  EXPECT_THAT(r.err, HasSubstr("--model must be petri or petri-paper"));
  r = run_warpsim("petri export " + radix_trace() + " radix --format dot");
  EXPECT_NE(r.exit_status, 0);
}

}  // namespace
}  // namespace warpsim

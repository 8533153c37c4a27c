// `warpsim completion bash`: the script bash sources completes subcommands, their options, node and model names.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "run_warpsim.h"

namespace warpsim {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// What bash offers for the words typed so far (the last one being completed), with the generated script sourced.
std::string completions(const std::string& script, const std::string& words) {
  const auto dir = testing::fresh_temp_dir();
  std::ofstream(dir / "warpsim.bash") << script;
  const std::string command = "bash -c 'source " + (dir / "warpsim.bash").string() + "; COMP_WORDS=(" + words +
                              "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _warpsim; echo \"${COMPREPLY[*]}\"' > " +
                              (dir / "out").string();
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  return testing::read_file(dir / "out");
}

TEST(CompletionCli, BashCompletesCommandsOptionsNodesAndModels) {
  const testing::CommandResult result = testing::run_warpsim("completion bash");
  ASSERT_EQ(result.exit_status, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("complete -o filenames -F _warpsim warpsim"));
  EXPECT_EQ(completions(result.out, "warpsim re"), "record report\n");
  EXPECT_EQ(completions(result.out, "warpsim report a.wstrace --max-k"), "--max-kernels\n");
  EXPECT_EQ(completions(result.out, "warpsim inspect --ver"), "--verify\n");
  EXPECT_THAT(completions(result.out, "warpsim merge --output x"), Not(HasSubstr("--")));
#ifdef WARPSIM_HAS_REPLAY_TESTS
  EXPECT_EQ(completions(result.out, "warpsim simulate t.wstrace -p h100-p"), "h100-pcie\n");
  EXPECT_EQ(completions(result.out, "warpsim simulate t.wstrace --model wave-b"), "wave-blocks\n");
#endif
}

TEST(CompletionCli, AnUnknownShellIsAUsageError) {
  const testing::CommandResult result = testing::run_warpsim("completion tcsh");
  EXPECT_GE(result.exit_status, 100);
  EXPECT_THAT(result.err, HasSubstr("tcsh"));
}

}  // namespace
}  // namespace warpsim

// `warpsim inspect` as users run it: the binary, real files, exit statuses and stderr.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "host_events.h"
#include "raw_trace.h"
#include "run_warpsim.h"
#include "sample_trace.h"
#include "trace_format.h"

namespace warpsim {
namespace {

using ::testing::HasSubstr;

using testing::CommandResult;
using testing::data;
using testing::run_warpsim;
using testing::shipped_trace;

// A failed inspect: non-zero status from exit() (a shell reports signals as 128+N), one line on stderr that names
// the file, nothing on stdout.
void expect_clean_failure(const CommandResult& result, const std::string& file, const std::string& problem) {
  EXPECT_GT(result.exit_status, 0);
  EXPECT_LT(result.exit_status, 128);
  EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
  EXPECT_THAT(result.err, HasSubstr(file));
  EXPECT_THAT(result.err, HasSubstr(problem));
  EXPECT_EQ(result.out, "");
}

TEST(InspectCli, AKernelNameCannotDriveTheTerminal) {
  const auto trace = testing::fresh_temp_dir() / "t.wstrace";
  testing::write_trace(trace, testing::two_gpu_header(),
                       {testing::kernel_event(0, 1, "evil\x1b]0;pwned\x07\x1b[2Jkernel", 0, 1000)});
  const CommandResult result = run_warpsim("inspect " + trace.string());
  ASSERT_EQ(result.exit_status, 0) << result.err;
  EXPECT_EQ(result.out.find('\x1b'), std::string::npos);
  EXPECT_THAT(result.out, HasSubstr("evil\\x1b]0;pwned\\x07\\x1b[2Jkernel"));
}

TEST(InspectCli, AFileNameThatIsNotUtf8StillGivesValidJson) {
  const auto trace = testing::fresh_temp_dir() / "trace-\xff\xfe.wstrace";
  std::filesystem::copy_file(data("sample.wstrace"), trace);
  const CommandResult result = run_warpsim("inspect --json '" + trace.string() + "'");
  ASSERT_EQ(result.exit_status, 0) << result.err;
  const nlohmann::json summary = nlohmann::json::parse(result.out, nullptr, false);
  EXPECT_FALSE(summary.is_discarded()) << result.out.substr(0, 200);
}

TEST(InspectCli, SummarizesTheShippedSample) {
  const CommandResult result = run_warpsim("inspect " + data("sample.wstrace"));
  EXPECT_EQ(result.exit_status, 0) << result.err;
  EXPECT_EQ(result.err, "");
  EXPECT_THAT(result.out, HasSubstr("devices    2"));
  EXPECT_THAT(result.out, HasSubstr("top kernels by total time"));
}

TEST(InspectCli, JsonHasTheDocumentedKeys) {
  const CommandResult result = run_warpsim("inspect --json " + data("sample.wstrace"));
  ASSERT_EQ(result.exit_status, 0) << result.err;
  const nlohmann::json json = nlohmann::json::parse(result.out);
  for (const char* key : {"devices", "links", "kernels", "copies", "kernels_with_counters"})
    EXPECT_TRUE(json.contains(key)) << key;
  EXPECT_EQ(json["devices"][0]["sm_count"], 132);
  EXPECT_EQ(json["links"][0]["type"], "NVLINK");
  EXPECT_EQ(json["kernels"], 24);
  EXPECT_EQ(json["kernels_with_counters"], 4);
  EXPECT_EQ(json["copies"]["PtoP"], 8);
}

TEST(InspectCli, CountsTheHostSide) {
  const auto path = testing::fresh_temp_dir() / "host.wstrace";
  testing::write_trace(path, testing::two_gpu_header(),
                       {testing::host_thread_event(4200, "main"), testing::stream_event(0, 7),
                        testing::api_call_event("cudaLaunchKernel_v7000", 4200, 1'000, 1'500, 9),
                        testing::kernel_event(0, 7, "_Z1kv", 2'000, 500)});
  const CommandResult json = run_warpsim("inspect --json " + path.string());
  ASSERT_EQ(json.exit_status, 0) << json.err;
  const nlohmann::json summary = nlohmann::json::parse(json.out);
  EXPECT_EQ(summary["api_calls"], 1);
  EXPECT_EQ(summary["host_threads"], 1);
  EXPECT_EQ(summary["streams"], 1);
  EXPECT_EQ(summary["span_ns"], 1'500);  // from the call's start to the kernel's end
  const CommandResult text = run_warpsim("inspect " + path.string());
  EXPECT_THAT(text.out, HasSubstr("host       api calls 1, host threads 1, streams 1\n"));
  const nlohmann::json old = nlohmann::json::parse(run_warpsim("inspect --json " + data("sample.wstrace")).out);
  EXPECT_EQ(old["api_calls"], 0);
  EXPECT_EQ(old["host_threads"], 0);
  EXPECT_EQ(old["streams"], 0);
}

TEST(InspectCli, TruncatedSampleIsSummarizedWithAWarning) {
  const CommandResult complete = run_warpsim("inspect --json " + data("sample.wstrace"));
  const CommandResult result = run_warpsim("inspect --json " + data("sample-truncated.wstrace"));
  EXPECT_EQ(result.exit_status, 0);
  EXPECT_THAT(result.err, HasSubstr("truncated"));
  EXPECT_THAT(result.err, HasSubstr("sample-truncated.wstrace: offset "));
  const nlohmann::json json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["truncated"], true);
  EXPECT_EQ(json["events"].get<int>(), nlohmann::json::parse(complete.out)["events"].get<int>() - 1);
}

TEST(InspectCli, EveryBadInputFailsCleanly) {
  const auto dir = testing::fresh_temp_dir();
  const std::string sample = testing::read_file(data("sample.wstrace"));
  const auto offsets = testing::record_offsets(sample);
  const std::string header = testing::encode_header(testing::two_gpu_header());
  auto bad = [&](const std::string& name, const std::string& bytes) {
    testing::write_file(dir / name, bytes);
    return (dir / name).string();
  };
  std::string long_length = sample;
  long_length[offsets.back()] = 0x7f;
  std::string garbage = sample;
  std::fill(garbage.begin() + static_cast<long>(offsets[1]) + 1,
            garbage.begin() + static_cast<long>(offsets[2] - trace_format::kChecksumBytes), '\xff');
  testing::reseal_record(garbage, offsets[1]);
  std::string damaged = sample;
  damaged[offsets[1] + 3] ^= 0x10;

  const std::vector<std::pair<std::string, std::string>> cases = {
      {bad("text.wstrace", "kernel,start,end\n"), "not a warpsim trace"},
      {bad("newer.wstrace", testing::prelude(trace_format::kFormatVersion + 1) + sample.substr(12)), "newer"},
      {bad("long-length.wstrace", long_length), "larger than"},
      {bad("absurd-length.wstrace",
           sample.substr(0, offsets[1]) + "\xff\xff\xff\xff\x0f" + sample.substr(offsets[1] + 5)),
       "absurdly large"},
      {bad("garbage.wstrace", garbage), "not a valid warpsim record"},
      {bad("damaged.wstrace", damaged), "checksum mismatch"},
      {bad("no-header.wstrace", testing::prelude(1) + testing::encode_event(testing::kernel_event(0, 1, "k", 0, 1))),
       "no header"},
      {bad("unknown-device.wstrace",
           testing::prelude(1) + header + testing::encode_event(testing::kernel_event(4, 1, "k", 0, 1))),
       "device 4"},
      {bad("empty.wstrace", ""), "empty file"},
      {(dir / "missing.wstrace").string(), "no such file"},
  };
  for (const auto& [file, problem] : cases) {
    SCOPED_TRACE(file);
    expect_clean_failure(run_warpsim("inspect " + file), file, problem);
    expect_clean_failure(run_warpsim("inspect --json " + file), file, problem);
  }
}

TEST(InspectCli, VerifyPassesOnlyAWholeTrace) {
  const CommandResult whole = run_warpsim("inspect --verify " + data("sample.wstrace"));
  EXPECT_EQ(whole.exit_status, 0) << whole.err;
  EXPECT_THAT(whole.out, HasSubstr("verified: header and 65 events"));
  EXPECT_THAT(whole.out, HasSubstr("every record's checksum matches"));
  EXPECT_EQ(whole.err, "");

  // inspect summarizes a truncated trace with a warning; --verify refuses it.
  const std::string truncated = data("sample-truncated.wstrace");
  expect_clean_failure(run_warpsim("inspect --verify " + truncated), truncated, "truncated trace");

  const auto dir = testing::fresh_temp_dir();
  std::string sample = testing::read_file(data("sample.wstrace"));
  const std::size_t last_record = testing::record_offsets(sample).back();
  sample[last_record + 4] ^= 0x01;  // inside a kernel's name or counters: still parses
  testing::write_file(dir / "damaged.wstrace", sample);
  expect_clean_failure(run_warpsim("inspect --verify " + (dir / "damaged.wstrace").string()),
                       (dir / "damaged.wstrace").string(), "checksum mismatch");
}

TEST(InspectCli, AFormatOneTraceIsReadWithANoteThatItHasNoChecksums) {
  const auto old = testing::fresh_temp_dir() / "old.wstrace";
  testing::write_file(old, testing::prelude(1) + testing::encode_header(testing::two_gpu_header()) +
                               testing::encode_event(testing::kernel_event(0, 1, "k", 0, 1000)) + testing::trailer(1));
  const CommandResult summary = run_warpsim("inspect " + old.string());
  EXPECT_EQ(summary.exit_status, 0) << summary.err;
  EXPECT_THAT(summary.out, HasSubstr("(format 1 without record checksums,"));
  const CommandResult verified = run_warpsim("inspect --verify " + old.string());
  EXPECT_EQ(verified.exit_status, 0) << verified.err;
  EXPECT_THAT(verified.out, HasSubstr("verified: header and 1 events"));
  EXPECT_THAT(verified.err, HasSubstr("note: " + old.string() + ": format 1 carries no record checksums"));
}

TEST(InspectCli, UsageErrorsExitNonZero) {
  // Usage errors are CLI11's codes, 100-127, as `warpsim --help` says; failures of a command are 1.
  for (const char* usage : {"inspect", "no-such-command", "inspect --no-such-option x"}) {
    const int status = run_warpsim(usage).exit_status;
    EXPECT_GE(status, 100) << usage;
    EXPECT_LE(status, 127) << usage;
  }
  EXPECT_EQ(run_warpsim("inspect /no/such/file.wstrace").exit_status, 1);
  EXPECT_THAT(run_warpsim("--help").out, HasSubstr("Exit status: 0 done; 1 failed"));
  const CommandResult version = run_warpsim("--version");
  EXPECT_EQ(version.exit_status, 0);
  EXPECT_THAT(version.out,
              ::testing::MatchesRegex("warpsim [0-9]+\\.[0-9]+\\.[0-9]+ \\(git ([0-9a-f]+(-dirty)?|unknown)\\)\n"));
}

}  // namespace
}  // namespace warpsim

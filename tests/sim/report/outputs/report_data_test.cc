// The report page's data: the kernel rows (shape, times, error, bound), the capped parts and what the page says of
// them, the timeline's tracks, link traffic, and the page's safety against names that would end its script.
#include "outputs/report_data.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/kernel_match.h"
#include "outputs/report_html.h"
#include "report_test_traces.h"

namespace warpsim::report {
namespace {

using nlohmann::json;
using warpsim::testing::copy_event;
using warpsim::testing::launch;
using warpsim::testing::trace_file;

// Two launches of one kernel on GPU 0 and one on GPU 1; in B, 10% slower, the first bounded by memory.
std::vector<Event> recording() {
  return {launch(0, 7, "_Z4axpyPf", 1, 1'000, 100'000), launch(0, 7, "_Z4axpyPf", 2, 200'000, 50'000),
          launch(1, 7, "_Z4axpyPf", 3, 1'000, 80'000), copy_event(Memcpy::PTOP, 8'000'000, 0, 7, 300'000, 10'000)};
}

std::vector<Event> simulation() {
  std::vector<Event> events = recording();
  for (Event& e : events) {
    if (!e.has_kernel()) continue;
    KernelLaunch& k = *e.mutable_kernel();
    k.set_end_ns(k.start_ns() + (k.end_ns() - k.start_ns()) * 11 / 10);
    k.mutable_simulated_bound()->set_kind(SimulatedBound::MEMORY);
    k.mutable_simulated_bound()->set_limiter("dram bandwidth");
  }
  return events;
}

ReportInputs one(const std::filesystem::path& a) {
  ReportInputs inputs;
  inputs.a = a;
  return inputs;
}

ReportInputs two(const std::filesystem::path& a, const std::filesystem::path& b) {
  ReportInputs inputs = one(a);
  inputs.b = b;
  return inputs;
}

json row_object(const json& kernels, std::size_t i) {
  json row;
  for (std::size_t c = 0; c < kernels["columns"].size(); ++c) row[kernels["columns"][c].get<std::string>()] = kernels["rows"][i][c];
  return row;
}

TEST(ReportData, EachKernelRowHasItsShapeBothTimesItsErrorAndItsBound) {
  const ReportData data = report_data(two(trace_file("a.wstrace", recording()), trace_file("b.wstrace", simulation(), CAPTURE_MODE_SIMULATED)));
  const json& kernels = data.page["kernels"];
  ASSERT_EQ(kernels["rows"].size(), 3u);
  EXPECT_EQ(kernels["total"], 3);
  const json first = row_object(kernels, 0);
  EXPECT_EQ(first["name"], "axpy");
  EXPECT_EQ(first["grid"], "108,1,1");
  EXPECT_EQ(first["a_ns"], 100'000);
  EXPECT_EQ(first["b_ns"], 110'000);
  EXPECT_NEAR(first["error_pct"].get<double>(), 10.0, 1e-9);
  EXPECT_EQ(first["bound"], "memory");
  EXPECT_EQ(first["limiter"], "dram bandwidth");
  EXPECT_EQ(data.page["traces"].size(), 2u);
  EXPECT_EQ(data.page["comparison"]["matched"], 3);
  EXPECT_FALSE(data.page["comparison"].contains("kernels")) << "the rows carry them";
}

TEST(ReportData, OneTraceAloneHasItsTimesAndNoComparison) {
  const ReportData data = report_data(one(trace_file("a.wstrace", recording())));
  EXPECT_TRUE(data.page["comparison"].is_null());
  const json row = row_object(data.page["kernels"], 0);
  EXPECT_TRUE(row["b_ns"].is_null());
  EXPECT_TRUE(row["error_pct"].is_null());
  EXPECT_EQ(row["bound"], "");
}

TEST(ReportData, CappedPartsKeepTheLongestKernelsAndTheFirstOperationsAndSaySo) {
  ReportInputs inputs = two(trace_file("a.wstrace", recording()), trace_file("b.wstrace", simulation()));
  inputs.max_kernels = 1;
  inputs.max_slices = 2;
  const ReportData data = report_data(inputs);
  ASSERT_EQ(data.page["kernels"]["rows"].size(), 1u);
  EXPECT_EQ(row_object(data.page["kernels"], 0)["a_ns"], 100'000);
  EXPECT_EQ(data.page["kernels"]["total"], 3);
  EXPECT_EQ(data.page["timelines"][0]["start_ns"].size(), 2u);
  EXPECT_EQ(data.page["timelines"][0]["operations"], 4);
  ASSERT_EQ(data.warnings.size(), 3u);  // the table, and each trace's timeline
  EXPECT_EQ(data.page["warnings"].size(), 3u);
  EXPECT_NE(data.warnings[0].find("timeline of A shows its first 2 of 4"), std::string::npos) << data.warnings[0];
}

TEST(ReportData, TheTimelineHasAStreamTrackPerGpuAndTimesFromTheTracesStart) {
  const ReportData data = report_data(one(trace_file("a.wstrace", recording())));
  const json& timeline = data.page["timelines"][0];
  EXPECT_EQ(timeline["tracks"], json::parse("[[0,7],[1,7]]"));
  EXPECT_EQ(timeline["start_ns"][0], 0);  // the first kernel starts the trace
  EXPECT_EQ(timeline["start_ns"][1], 199'000);
  EXPECT_EQ(timeline["labels"][timeline["label"][3].get<std::size_t>()], "PtoP copy");
}

TEST(ReportData, APeerCopyIsTrafficOnTheNvlinkBetweenItsGpus) {
  const ReportData data = report_data(one(trace_file("a.wstrace", recording())));
  const json& links = data.page["links"][0];
  ASSERT_EQ(links["series"].size(), 1u);
  const json& nvlink = links["series"][0];
  EXPECT_EQ(nvlink["name"], "NVLink GPU0-GPU1");
  EXPECT_NEAR(nvlink["capacity_gb_per_s"].get<double>(), 849.96, 1e-9);
  double bytes = 0;
  for (const json& rate : nvlink["gb_per_s"]) bytes += rate.get<double>() * links["bin_ns"].get<double>();
  EXPECT_NEAR(bytes, 8'000'000, 1);  // every byte of the copy, in some bin
}

TEST(ReportData, TracesOfDifferentProgramsAreRefused) {
  std::vector<Event> other = simulation();
  other[0].mutable_kernel()->set_name("_Z5otherv");
  EXPECT_THROW(report_data(two(trace_file("a.wstrace", recording()), trace_file("b.wstrace", other))), KernelMismatch);
}

TEST(ReportHtml, AKernelNamedLikeAClosingScriptTagCannotEndThePagesData) {
  std::vector<Event> events = recording();
  events[0].mutable_kernel()->set_name("</script><script>alert(1)</script>");
  const ReportData data = report_data(one(trace_file("a.wstrace", events)));
  const std::string page = report_html(data.page);
  EXPECT_EQ(page.find("alert(1)</script>"), std::string::npos);
  EXPECT_NE(page.find("<\\/script><script>alert(1)<\\/script>"), std::string::npos);
  EXPECT_EQ(page.find("@WARPSIM_DATA@"), std::string::npos);
  EXPECT_EQ(page.find("/*@WARPSIM_SCRIPT@*/"), std::string::npos);
}

TEST(ReportHtml, ThePageIsWrittenWholeAndNeverOverAnInput) {
  const auto a = trace_file("a.wstrace", recording());
  EXPECT_THROW(write_report_file(one(a), a), std::exception);
  const auto page = a.parent_path() / "report.html";
  write_report_file(one(a), page);
  EXPECT_GT(std::filesystem::file_size(page), 10'000u);
}

}  // namespace
}  // namespace warpsim::report

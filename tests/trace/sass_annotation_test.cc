// `annotate_sass`: a trace's kernels get the summaries of a real sm_90 cubin (tests/data/sass), matched by mangled
// name; other kernels, recorded summaries of other code and bad input are handled as the header says.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "atomic_output.h"
#include "fatbin.h"
#include "sample_trace.h"
#include "sass_annotation.h"
#include "trace_error.h"
#include "trace_reader.h"

namespace warpsim::trace {
namespace {

constexpr const char* kDependent = "_Z14ffma_dependentPfff";  // a function of the fixture cubin
const std::filesystem::path kCubin = std::filesystem::path(WARPSIM_TEST_DATA) / "sass/kernels_sm90.cubin";

std::vector<KernelLaunch> kernels_of(const std::filesystem::path& path) {
  TraceReader reader(path);
  std::vector<KernelLaunch> kernels;
  Event event;
  while (reader.next(event))
    if (event.has_kernel()) kernels.push_back(event.kernel());
  return kernels;
}

class SassAnnotationTest : public ::testing::Test {
 protected:
  std::filesystem::path dir = testing::fresh_temp_dir();
  std::filesystem::path input = dir / "in.wstrace";
  std::filesystem::path output = dir / "out.wstrace";

  void write_input(const std::vector<Event>& events) {
    testing::write_trace(input, testing::two_gpu_header(), events);
  }
};

TEST_F(SassAnnotationTest, KernelsOfTheCubinGetItsSummaryAndOthersAreListed) {
  Event other_code = testing::kernel_event(0, 1, kDependent, 3000, 100);
  other_code.mutable_kernel()->mutable_sass()->set_instructions(7);  // recorded from some other build
  write_input({testing::kernel_event(0, 1, kDependent, 1000, 100), testing::kernel_event(0, 1, "_Z5otherv", 2000, 100),
               other_code});
  const SassAnnotation result = annotate_sass(input, {kCubin}, output);
  EXPECT_EQ(result.kernels, 3u);
  EXPECT_EQ(result.annotated, 1u);
  EXPECT_EQ(result.disagreed, 1u);
  EXPECT_EQ(result.unknown_functions, std::vector<std::string>{"_Z5otherv"});
  const std::vector<KernelLaunch> kernels = kernels_of(output);
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels[0].sass().instructions(), 40u);  // the fixture's dependent FFMA chain
  EXPECT_TRUE(kernels[0].sass().has_stall_points());
  EXPECT_FALSE(kernels[1].has_sass());
  EXPECT_EQ(kernels[2].sass().instructions(), 7u) << "a summary of other code is kept, not replaced";
}

// With instruction counts, a counted kernel also gets the executed fields (the fixture's dependent chain starts with
// an LDC at stall 8 and one at stall 1); a function whose counts lie outside its code is listed and not used.
TEST_F(SassAnnotationTest, CountedKernelsGetTheirExecutedInstructions) {
  write_input({testing::kernel_event(0, 1, kDependent, 1000, 100),
               testing::kernel_event(0, 1, "_Z16ffma_independentP6float4ff", 2000, 100)});
  const ExecutionsByFunction counts{{kDependent, {{0x00, 3}, {0x10, 2}}},
                                    {"_Z16ffma_independentP6float4ff", {{0x100000, 1}}}};
  const SassAnnotation result = annotate_sass(input, {kCubin}, output, {}, &counts);
  EXPECT_EQ(result.annotated, 2u);
  EXPECT_EQ(result.executions_annotated, 1u);
  EXPECT_EQ(result.counts_outside_code, std::vector<std::string>{"_Z16ffma_independentP6float4ff"});
  const std::vector<KernelLaunch> kernels = kernels_of(output);
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].sass().executed_instructions(), 5u);
  EXPECT_EQ(kernels[0].sass().executed_stall_cycles(), 3u * 8u + 2u * 1u);
  EXPECT_FALSE(kernels[1].sass().has_executed_instructions());
}

// A fatbin (here ZSTD-compressed, as cuBLAS 13 ships them) gives the cubin for the trace's GPU (compute
// capability 9.0): the same summary as the cubin itself. Skipped in a build without libzstd.
TEST_F(SassAnnotationTest, FatbinGivesTheCubinOfTheTracesGpu) {
  if (!decodes_compressed_entries()) GTEST_SKIP() << "built without libzstd";
  write_input({testing::kernel_event(0, 1, kDependent, 1000, 100)});
  const SassAnnotation result = annotate_sass(input, {kCubin.parent_path() / "kernels_compressed.fatbin"}, output);
  EXPECT_EQ(result.annotated, 1u);
  EXPECT_EQ(kernels_of(output)[0].sass().instructions(), 40u);
}

TEST_F(SassAnnotationTest, RefusesToWriteOverItsInputAndLeavesItWhole) {
  write_input({testing::kernel_event(0, 1, kDependent, 1000, 100)});
  const std::string before = testing::read_file(input);
  EXPECT_THROW(annotate_sass(input, {kCubin}, input), OutputError);
  EXPECT_EQ(testing::read_file(input), before);
}

TEST_F(SassAnnotationTest, AFileThatIsNoCubinIsRefusedAndNoOutputAppears) {
  write_input({testing::kernel_event(0, 1, kDependent, 1000, 100)});
  const std::filesystem::path not_cubin = dir / "notes.txt";
  testing::write_file(not_cubin, "not an ELF file");
  try {
    annotate_sass(input, {not_cubin}, output);
    FAIL() << "expected a TraceError";
  } catch (const TraceError& error) {
    EXPECT_NE(std::string(error.what()).find("notes.txt"), std::string::npos) << error.what();
  }
  EXPECT_FALSE(std::filesystem::exists(output));
  EXPECT_THROW(annotate_sass(input, {dir / "missing.cubin"}, output), TraceError);
}

// PTX with an entry of the fixture's name whose one load reads the same word in every thread: each launch of it gets
// a load-sharing share per count of resident blocks, the first (one block an SM) 7 of its 8 warps' requests.
constexpr const char* kUniformLoadPtx = R"(.version 9.0
.target sm_90
.visible .entry _Z14ffma_dependentPfff(
	.param .u64 p0
)
{
	ld.param.u64 	%rd1, [p0];
	ld.global.f32 	%f1, [%rd1];
	st.global.f32 	[%rd1], %f1;
	ret;
}
)";

TEST_F(SassAnnotationTest, KernelsOfThePtxGetTheirLoadSharing) {
  Event launch = testing::kernel_event(0, 1, kDependent, 1000, 100);
  launch.mutable_kernel()->mutable_block()->set_x(256);
  launch.mutable_kernel()->mutable_grid()->set_x(1);
  write_input({launch, testing::kernel_event(0, 1, "_Z5otherv", 2000, 100)});
  const std::filesystem::path ptx = dir / "kernels.ptx";
  testing::write_file(ptx, kUniformLoadPtx);
  const SassAnnotation result = annotate_sass(input, {kCubin}, output, {ptx});
  EXPECT_EQ(result.shared_loads_annotated, 1u);
  const std::vector<KernelLaunch> kernels = kernels_of(output);
  ASSERT_EQ(kernels.size(), 2u);
  ASSERT_EQ(kernels[0].load_sharing().inflight_request_share_size(), 8) << "2048 threads an SM: 1 to 8 blocks";
  EXPECT_DOUBLE_EQ(kernels[0].load_sharing().inflight_request_share(0), 7.0 / 8);
  EXPECT_EQ(kernels[0].load_sharing().global_loads(), 1u);
  EXPECT_FALSE(kernels[1].has_load_sharing());
}

TEST_F(SassAnnotationTest, AFileThatIsNoPtxIsRefusedAndNoOutputAppears) {
  write_input({testing::kernel_event(0, 1, kDependent, 1000, 100)});
  const std::filesystem::path not_ptx = dir / "notes.ptx";
  testing::write_file(not_ptx, "not PTX");
  EXPECT_THROW(annotate_sass(input, {kCubin}, output, {not_ptx}), TraceError);
  EXPECT_THROW(annotate_sass(input, {kCubin}, output, {dir / "missing.ptx"}), TraceError);
  EXPECT_FALSE(std::filesystem::exists(output));
}

}  // namespace
}  // namespace warpsim::trace

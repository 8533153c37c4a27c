#include "ptx_loads.h"

#include <gtest/gtest.h>

#include <string>

namespace warpsim::trace {
namespace {

// A kernel of two global loads, in nvcc 13's PTX form: a[k * n + k] (one word for every thread: the 8 warps of a
// block ask for one line at once) and a[k * n + x] with x = ctaid.x * ntid.x + tid.x (a line a warp, its own).
constexpr const char* kTwoLoads = R"(
.version 9.0
.target sm_90
.address_size 64

.visible .entry two_loads(
	.param .u64 two_loads_param_0,
	.param .u32 two_loads_param_1,
	.param .u32 two_loads_param_2
)
{
	.reg .f32 	%f<4>;
	.reg .b32 	%r<10>;
	.reg .b64 	%rd<9>;

	ld.param.u64 	%rd1, [two_loads_param_0];
	ld.param.u32 	%r1, [two_loads_param_1];
	ld.param.u32 	%r2, [two_loads_param_2];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r3, %ntid.x;
	mov.u32 	%r4, %ctaid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r6, %r4, %r3, %r5;
	mad.lo.s32 	%r7, %r2, %r1, %r2;
	mul.wide.s32 	%rd3, %r7, 4;
	add.s64 	%rd4, %rd2, %rd3;
	ld.global.f32 	%f1, [%rd4];
	mad.lo.s32 	%r8, %r2, %r1, %r6;
	mul.wide.s32 	%rd5, %r8, 4;
	add.s64 	%rd6, %rd2, %rd5;
	ld.global.f32 	%f2, [%rd6+4];
	add.f32 	%f3, %f1, %f2;
	st.global.f32 	[%rd6], %f3;
	ret;
}
)";

// A loop over i of a[i * n + x]: every iteration a new line for each warp, never another warp's.
constexpr const char* kLoop = R"(
.version 9.0
.target sm_90
.visible .entry column_loop(
	.param .u64 column_loop_param_0,
	.param .u32 column_loop_param_1
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<8>;
	.reg .f32 	%f<3>;

	ld.param.u64 	%rd1, [column_loop_param_0];
	ld.param.u32 	%r1, [column_loop_param_1];
	mov.u32 	%r2, %ctaid.x;
	mov.u32 	%r3, %ntid.x;
	mov.u32 	%r4, %tid.x;
	mad.lo.s32 	%r5, %r2, %r3, %r4;
	mul.wide.s32 	%rd2, %r5, 4;
	add.s64 	%rd3, %rd1, %rd2;
	mul.wide.s32 	%rd4, %r1, 4;
	mov.u32 	%r6, 0;
$L__BB0_1:
	ld.global.f32 	%f1, [%rd3];
	add.s64 	%rd3, %rd3, %rd4;
	add.s32 	%r6, %r6, 1;
	setp.lt.s32 	%p1, %r6, %r1;
	@%p1 bra 	$L__BB0_1;
	ret;
}
)";

LaunchGeometry one_wave_of_256(std::uint32_t resident_blocks) {
  LaunchGeometry g;
  g.block[0] = 256;
  g.grid[0] = 132 * resident_blocks;
  g.resident_blocks = resident_blocks;
  g.sm_count = 132;
  return g;
}

TEST(PtxLoads, FindsEveryEntryAndItsGlobalLoads) {
  const auto kernels = parse_ptx(std::string(kTwoLoads) + kLoop);
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels.at("two_loads").loads.size(), 2u);
  ASSERT_EQ(kernels.at("column_loop").loads.size(), 1u);
  EXPECT_TRUE(kernels.at("column_loop").loads[0].in_loop);
  EXPECT_FALSE(kernels.at("two_loads").loads[0].in_loop);
  EXPECT_EQ(kernels.at("two_loads").loads[1].offset, 4);
}

TEST(PtxLoads, OneWordForAllWarpsIsInFlightForAllButTheFirst) {
  const auto kernels = parse_ptx(kTwoLoads);
  // One block an SM: the uniform load's 8 requests find its line in flight 7 times, the own-line load never (a warp's
  // 32 words shifted by one word touch two lines, one of them the next warp's too: in flight as well).
  const double share = inflight_request_share(kernels.at("two_loads"), one_wave_of_256(1));
  EXPECT_GT(share, 7.0 / 8 / 2);
  EXPECT_LT(share, 0.75);
}

TEST(PtxLoads, LinesSeenInAnEarlierWaveAreNotInFlight) {
  const auto kernels = parse_ptx(kTwoLoads);
  LaunchGeometry many_waves = one_wave_of_256(1);
  many_waves.grid[0] = 132 * 10;
  // The uniform word is the same line for every block: only the first wave finds it on its way.
  EXPECT_LT(inflight_request_share(kernels.at("two_loads"), many_waves),
            inflight_request_share(kernels.at("two_loads"), one_wave_of_256(1)));
}

TEST(PtxLoads, AWarpsOwnNewLinesAreNeverInFlight) {
  const auto kernels = parse_ptx(kLoop);
  EXPECT_DOUBLE_EQ(inflight_request_share(kernels.at("column_loop"), one_wave_of_256(8)), 0);
}

TEST(PtxLoads, AnAddressItCannotFollowSharesNothing) {
  // A load whose address comes from an instruction the analysis does not know (selp) counts as shared by no one.
  std::string ptx = kTwoLoads;
  const std::string uniform_index = "mad.lo.s32 \t%r7, %r2, %r1, %r2;";
  ptx.replace(ptx.find(uniform_index), uniform_index.size(), "selp.b32 \t%r7, %r2, %r1, %p1;");
  const auto kernels = parse_ptx(ptx);
  const double share = inflight_request_share(kernels.at("two_loads"), one_wave_of_256(1));
  EXPECT_LT(share, 7.0 / 8 / 2);
}

TEST(PtxLoads, GarbageGivesNoKernelsAndNoCrash) {
  EXPECT_TRUE(parse_ptx("").empty());
  EXPECT_TRUE(parse_ptx(".entry").empty());
  EXPECT_TRUE(parse_ptx(".entry broken( {").empty());
  const auto kernels = parse_ptx(".entry k()\n{\n\tld.global.f32 %f1, [%rd1+zz];\n\tld.global.f32 %f1, [;\n}\n");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_DOUBLE_EQ(inflight_request_share(kernels.at("k"), one_wave_of_256(1)), 0);
}

TEST(PtxLoads, AChainDeeperThanAnyCompilerWritesIsNotFollowed) {
  // 100000 registers each defined from the one before: the address is left unknown, without exhausting the stack.
  std::string ptx = ".entry deep()\n{\n\tmov.u32 \t%r0, %tid.x;\n";
  for (int i = 1; i < 100000; ++i)
    ptx += "\tadd.s32 \t%r" + std::to_string(i) + ", %r" + std::to_string(i - 1) + ", 1;\n";
  ptx += "\tld.global.f32 \t%f1, [%r99999];\n}\n";
  const auto kernels = parse_ptx(ptx);
  EXPECT_DOUBLE_EQ(inflight_request_share(kernels.at("deep"), one_wave_of_256(1)), 0);
}

}  // namespace
}  // namespace warpsim::trace

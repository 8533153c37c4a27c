// The SimGrid replay against times computed by hand. One engine per process: CTest runs each test alone.
#include "replay_engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>
#include "op_work.h"

#include "test_node.h"

namespace warpsim::replay {
namespace {

constexpr double kGB = 1e9;

// A program of independent operations, one per stream, all issued at time 0.
struct Scenario {
  ReplayProgram program;
  std::vector<OpWork> work;

  std::size_t add(OpWork op_work, std::size_t stream, std::vector<std::size_t> waits_for = {}) {
    const std::size_t op = program.ops.size();
    while (program.streams.size() <= stream) {
      program.streams.push_back({0, static_cast<std::uint32_t>(program.streams.size()), {}});
    }
    program.ops.push_back({op, stream, std::move(waits_for)});
    program.streams[stream].ops.push_back(op);
    host().push_back({HostStep::Kind::kIssue, op, op, 0});
    work.push_back(std::move(op_work));
    return op;
  }
  std::vector<HostStep>& host() {
    if (program.threads.empty()) program.threads.emplace_back();
    return program.threads[0].steps;
  }
  ReplayTimings run(const Topology& topology, std::size_t copy_engines = 0) const {
    return run_replay(topology, program, work, copy_engines);
  }
};

OpWork transfer(std::size_t from, std::size_t to, double bytes) {
  OpWork work;
  work.transfers.push_back({from, to, static_cast<std::uint64_t>(bytes)});
  return work;
}

double duration(const ReplayTimings& timings, std::size_t op) { return timings.op_end[op] - timings.op_start[op]; }

TEST(ReplayEngine, CopyTakesLatencyPlusBytesOverBandwidth) {
  const Topology topology = Topology::from_platform(testing::pcie_node(1, 32, 1000));
  Scenario scenario;
  scenario.add(transfer(topology.host(), topology.gpu_memory(0), 1 * kGB), 0);
  const double expected = 1e-6 + 1 * kGB / (32 * kGB);
  EXPECT_NEAR(duration(scenario.run(topology), 0), expected, expected * 1e-3);
}

TEST(ReplayEngine, TwoConcurrentCopiesOnOneLinkTakeTwiceAsLong) {
  const Topology topology = Topology::from_platform(testing::pcie_node(1, 32, 0));
  Scenario scenario;
  scenario.add(transfer(topology.host(), topology.gpu_memory(0), 1 * kGB), 0);
  scenario.add(transfer(topology.host(), topology.gpu_memory(0), 1 * kGB), 1);
  const ReplayTimings timings = scenario.run(topology);
  const double alone = 1 * kGB / (32 * kGB);
  EXPECT_NEAR(duration(timings, 0), 2 * alone, 2 * alone * 1e-3);
  EXPECT_NEAR(duration(timings, 1), 2 * alone, 2 * alone * 1e-3);
}

TEST(ReplayEngine, CopiesInOppositeDirectionsDoNotShareAPcieLink) {
  const Topology topology = Topology::from_platform(testing::pcie_node(1, 32, 0));
  Scenario scenario;
  scenario.add(transfer(topology.host(), topology.gpu_memory(0), 1 * kGB), 0);
  scenario.add(transfer(topology.gpu_memory(0), topology.host(), 1 * kGB), 1);
  const ReplayTimings timings = scenario.run(topology);
  EXPECT_NEAR(duration(timings, 0), 1.0 / 32, 1e-3 / 32);
  EXPECT_NEAR(duration(timings, 1), 1.0 / 32, 1e-3 / 32);
}

TEST(ReplayEngine, TwoGpusBehindOneSwitchShareItsUplink) {
  platform::Platform node = testing::pcie_node(2, 32, 0);
  testing::behind_one_switch(node, 16);
  const Topology topology = Topology::from_platform(node);
  Scenario scenario;
  scenario.add(transfer(topology.host(), topology.gpu_memory(0), 1 * kGB), 0);
  scenario.add(transfer(topology.host(), topology.gpu_memory(1), 1 * kGB), 1);
  const ReplayTimings timings = scenario.run(topology);
  const double shared = 1 * kGB / (8 * kGB);  // 16 GB/s uplink, half each
  EXPECT_NEAR(duration(timings, 0), shared, shared * 1e-3);
  EXPECT_NEAR(duration(timings, 1), shared, shared * 1e-3);
}

TEST(ReplayEngine, PeerCopyOnTwoH200TakesNvlink) {
  platform::Platform node = testing::pcie_node(2, 55, 0);
  testing::add_nvlink(node, 18, 26.562);  // as measured on the 2xH200 machine
  const Topology topology = Topology::from_platform(node);
  Scenario scenario;
  scenario.add(transfer(topology.gpu_memory(0), topology.gpu_memory(1), 1 * kGB), 0);
  const double expected = 1 * kGB / (18 * 26.562 * kGB);
  EXPECT_NEAR(duration(scenario.run(topology), 0), expected, expected * 1e-3);
}

TEST(ReplayEngine, StreamOrderIsKept) {
  const Topology topology = Topology::from_platform(testing::pcie_node(1, 32, 0));
  Scenario scenario;
  scenario.add(transfer(topology.host(), topology.gpu_memory(0), 1 * kGB), 0);
  scenario.add(transfer(topology.host(), topology.gpu_memory(0), 1 * kGB), 0);
  const ReplayTimings timings = scenario.run(topology);
  EXPECT_GE(timings.op_start[1], timings.op_end[0]);
  EXPECT_NEAR(timings.op_end[1], 2.0 / 32, 1e-3 / 32);
}

TEST(ReplayEngine, CrossStreamEventWaitIsHonoured) {
  const Topology topology = Topology::from_platform(testing::pcie_node(1, 32, 0));
  Scenario scenario;
  const std::size_t producer = scenario.add(transfer(topology.host(), topology.gpu_memory(0), 1 * kGB), 0);
  const std::size_t consumer = scenario.add(transfer(topology.gpu_memory(0), topology.host(), 1e6), 1, {producer});
  const ReplayTimings timings = scenario.run(topology);
  EXPECT_GE(timings.op_start[consumer], timings.op_end[producer]);
}

TEST(ReplayEngine, HostWaitDelaysLaterIssues) {
  const Topology topology = Topology::from_platform(testing::pcie_node(1, 32, 0));
  Scenario scenario;
  const std::size_t first = scenario.add(transfer(topology.host(), topology.gpu_memory(0), 1 * kGB), 0);
  scenario.host().push_back({HostStep::Kind::kWait, first, first, 0});
  scenario.host().push_back({HostStep::Kind::kCompute, kNoOp, kNoOp, 5e-6});
  const std::size_t second = scenario.add(transfer(topology.gpu_memory(0), topology.host(), 1e6), 1);
  const ReplayTimings timings = scenario.run(topology);
  // Issued after the wait, plus one API call.
  EXPECT_NEAR(timings.op_start[second], timings.op_end[first] + 5e-6, 1e-9);
}

// A host thread issues without sleeping through each step (replay_engine.cc): an operation still starts when its
// stream is free and not before the host issued it, over many more issues than it may run ahead by (kRunAheadOps).
// Stream 0 gets bursts of nine 10 us copies issued 2 us apart (it falls behind the host, then catches up), stream 1
// one copy after each burst and 100 us of host work (it waits for the host).
TEST(ReplayEngine, OperationsStartWhenIssuedOrWhenTheirStreamIsFreeOverManyIssues) {
  const Topology topology = Topology::from_platform(testing::pcie_node(1, 32, 0));
  Scenario scenario;
  constexpr std::size_t kIssues = 3000;
  constexpr double kCopySeconds = 10e-6;
  std::vector<double> issued_at;
  std::vector<std::size_t> stream_of;
  double host_clock = 0;
  for (std::size_t i = 0; i < kIssues; ++i) {
    const std::size_t stream = i % 10 == 9 ? 1 : 0;
    const double gap = stream == 0 ? 2e-6 : 100e-6;
    scenario.host().push_back({HostStep::Kind::kCompute, kNoOp, kNoOp, gap});
    host_clock += gap;
    issued_at.push_back(host_clock);
    stream_of.push_back(stream);
    // Stream 0 to the GPU and stream 1 from it: opposite directions do not share a PCIe link.
    scenario.add(stream == 0 ? transfer(topology.host(), topology.gpu_memory(0), kCopySeconds * 32 * kGB)
                             : transfer(topology.gpu_memory(0), topology.host(), kCopySeconds * 32 * kGB),
                 stream);
  }
  const ReplayTimings timings = scenario.run(topology);
  double free_at[2] = {0, 0};
  double last_end = 0;
  for (std::size_t i = 0; i < kIssues; ++i) {
    const double expected_start = std::max(issued_at[i], free_at[stream_of[i]]);
    ASSERT_NEAR(timings.op_start[i], expected_start, 1e-9) << "operation " << i;
    ASSERT_NEAR(timings.op_end[i], expected_start + kCopySeconds, 1e-9) << "operation " << i;
    free_at[stream_of[i]] = timings.op_end[i];
    last_end = std::max(last_end, timings.op_end[i]);
  }
  EXPECT_GT(timings.op_start[8], issued_at[8]);  // stream 0 was behind the host
  EXPECT_NEAR(timings.end, last_end, 1e-9);
}

// A feed that knows an operation only once asked for it, as one reading its trace in windows does: the engine must
// not ask before the host issued it, and must ask each stream once more, when the host has ended.
class LazyFeed : public ReplayFeed {
 public:
  LazyFeed(const Topology& topology, std::vector<HostStep> steps) : topology_(topology), steps_(std::move(steps)) {}
  std::vector<std::uint64_t> thread_ids() const override { return {1}; }
  std::size_t stream_count() const override { return next_ > 0 ? 2 : 1; }  // learns of the second as it goes
  const ReplayStream& stream(std::size_t index) const override { return streams_[index]; }
  std::vector<std::pair<std::size_t, std::size_t>> routes() const override {
    return {{topology_.host(), topology_.gpu_memory(0)}};
  }
  bool next_step(std::size_t, HostStep& step) override {
    if (next_ == steps_.size()) return false;
    step = steps_[next_++];
    if (step.kind == HostStep::Kind::kIssue) ++issued_[step.stream];
    return true;
  }
  std::optional<FedOp> next_op(std::size_t stream) override {
    ++asked_[stream];
    if (asked_[stream] > issued_[stream]) return std::nullopt;
    const std::size_t op = ops_handed_++;
    return FedOp{op, {}, transfer(topology_.host(), topology_.gpu_memory(0), 1 * kGB)};
  }
  void step_ended(std::size_t, const HostStep&, double) override {}
  void op_ended(const FedOp& op, double start_s, double end_s, std::int16_t) override {
    if (ended_.size() <= op.op) ended_.resize(op.op + 1);
    ended_[op.op] = {start_s, end_s};
  }

  const Topology& topology_;
  std::vector<ReplayStream> streams_{{0, 0, {}}, {0, 1, {}}};
  std::vector<HostStep> steps_;
  std::size_t next_ = 0, ops_handed_ = 0;
  std::size_t issued_[2] = {0, 0}, asked_[2] = {0, 0};
  std::vector<std::pair<double, double>> ended_;
};

TEST(ReplayEngine, AFeedIsAskedForAnOperationOnlyOnceIssuedAndEachStreamOnceMoreAtTheEnd) {
  const Topology topology = Topology::from_platform(testing::pcie_node(1, 32, 0));
  LazyFeed feed(topology, {{HostStep::Kind::kIssue, 0, 0, 0, 0},
                           {HostStep::Kind::kWait, 0, 0, 0},
                           {HostStep::Kind::kCompute, kNoOp, kNoOp, 5e-6},
                           {HostStep::Kind::kIssue, 1, 1, 0, 0}});
  const double end = run_replay(topology, feed);
  ASSERT_EQ(feed.ended_.size(), 2u);
  EXPECT_NEAR(feed.ended_[1].first, feed.ended_[0].second + 5e-6, 1e-9);
  EXPECT_NEAR(end, feed.ended_[1].second, 1e-12);
  EXPECT_EQ(feed.asked_[0], 3u);  // two operations, then nothing follows
  EXPECT_EQ(feed.asked_[1], 1u);  // a stream that never ran anything
}

TEST(ReplayEngine, OperationsWaitingForEachOtherStopTheReplayWithAMessage) {
  const Topology topology = Topology::from_platform(testing::pcie_node(1, 32, 0));
  Scenario scenario;
  scenario.add(transfer(topology.host(), topology.gpu_memory(0), 1e6), 0, {1});
  scenario.add(transfer(topology.gpu_memory(0), topology.host(), 1e6), 1, {0});
  try {
    scenario.run(topology);
    FAIL() << "a replay whose operations wait for each other ended";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("waiting for each other"), std::string::npos) << error.what();
  }
}

// A feed that fails at its third operation (a damaged trace read as the replay goes).
class FailingFeed : public ProgramFeed {
 public:
  using ProgramFeed::ProgramFeed;
  std::optional<FedOp> next_op(std::size_t stream) override {
    if (++asked_ == 3) throw std::runtime_error("trace.wstrace: record 3 is damaged");
    return ProgramFeed::next_op(stream);
  }

 private:
  int asked_ = 0;
};

TEST(ReplayEngine, AFeedsErrorStopsTheReplayAndIsRethrown) {
  const Topology topology = Topology::from_platform(testing::pcie_node(1, 32, 0));
  Scenario scenario;
  for (int i = 0; i < 5; ++i) scenario.add(transfer(topology.host(), topology.gpu_memory(0), 1e6), 0);
  FailingFeed feed(scenario.program, scenario.work);
  try {
    run_replay(topology, feed);
    FAIL() << "the feed's error was lost";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "trace.wstrace: record 3 is damaged");
  }
  EXPECT_EQ(feed.timings().op_end[2], 0);  // nothing ran after it
  EXPECT_EQ(feed.timings().op_end[4], 0);
}

TEST(ReplayEngine, CopiesNeedingOneCopyEngineRunOneAtATime) {
  const Topology topology = Topology::from_platform(testing::pcie_node(1, 32, 0));
  Scenario scenario;
  OpWork copy = transfer(topology.host(), topology.gpu_memory(0), 1 * kGB);
  copy.copy_engine = 0;
  scenario.add(copy, 0);
  scenario.add(copy, 1);  // another stream, the same engine
  const ReplayTimings timings = scenario.run(topology, 1);
  const double alone = 1.0 / 32;
  EXPECT_NEAR(duration(timings, 0), alone, alone * 1e-3);
  EXPECT_NEAR(duration(timings, 1), alone, alone * 1e-3);  // not sharing the link: waiting for the engine
  EXPECT_NEAR(std::max(timings.op_end[0], timings.op_end[1]), 2 * alone, alone * 1e-3);
}

TEST(ReplayEngine, KernelLastsAsLongAsItsSlowestResource) {
  const Topology topology = Topology::from_platform(testing::pcie_node(1));
  const double dram = 3352 * 0.92 * kGB;  // the test GPU's DRAM, bytes per second
  Scenario scenario;
  OpWork compute_bound;
  compute_bound.sm_vertex = topology.gpu_sm(0);
  compute_bound.sm_time_s = 1e-3;
  compute_bound.sms_used = 132;
  compute_bound.transfers.push_back({topology.gpu_memory(0), topology.gpu_sm(0), static_cast<std::uint64_t>(0.5e-3 * dram)});
  OpWork memory_bound = compute_bound;
  memory_bound.transfers[0].bytes = static_cast<std::uint64_t>(2e-3 * dram);
  scenario.add(compute_bound, 0);
  scenario.add(memory_bound, 0);
  const ReplayTimings timings = scenario.run(topology);
  EXPECT_NEAR(duration(timings, 0), 1e-3, 1e-6);
  EXPECT_NEAR(duration(timings, 1), 2e-3, 2e-6);
}

// A kernel that reads host memory beside its own: 2 ms of PCIe reads and 1 ms of SM work. Interleaved (serial share 0)
// they overlap: 2 ms. Read by the first blocks (batch: serial share 1) the remote phase comes first, the local after:
// 3 ms. Half apart: 1 ms together (half of each), then 1 ms of remote, then 0.5 ms of SM work: 2.5 ms.
TEST(ReplayEngine, AKernelsRemoteAndLocalWorkRunApartByItsSerialShare) {
  const double pcie = 55 * kGB;  // bytes per second; no latency, so that each phase's time is exact
  const Topology topology = Topology::from_platform(testing::pcie_node(1, 55, 0));
  Scenario scenario;
  OpWork kernel;
  kernel.sm_vertex = topology.gpu_sm(0);
  kernel.sm_time_s = 1e-3;
  kernel.sms_used = 132;
  kernel.transfers.push_back({topology.host(), topology.gpu_sm(0), static_cast<std::uint64_t>(2e-3 * pcie), true});
  for (double serial : {0.0, 1.0, 0.5}) {
    OpWork op = kernel;
    op.serial_share = serial;
    scenario.add(op, 0);
  }
  const ReplayTimings timings = scenario.run(topology);
  EXPECT_NEAR(duration(timings, 0), 2e-3, 2e-5);
  EXPECT_NEAR(duration(timings, 1), 3e-3, 3e-5);
  EXPECT_NEAR(duration(timings, 2), 2.5e-3, 3e-5);
  EXPECT_EQ(timings.op_last_transfer[0], 0) << "the host memory ends last";
  EXPECT_EQ(timings.op_last_transfer[1], -1) << "the SM work, run after the remote phase, ends last";
}

// The local phase of a kernel run apart runs the SM time of its local work alone (the model's time for the kernel
// without its remote loads), not the whole kernel's, which already waits on them: 2 ms of remote reads, then 0.4 ms.
TEST(ReplayEngine, AKernelsLocalPhaseRunsItsLocalSmTime) {
  const double pcie = 55 * kGB;
  const Topology topology = Topology::from_platform(testing::pcie_node(1, 55, 0));
  Scenario scenario;
  OpWork kernel;
  kernel.sm_vertex = topology.gpu_sm(0);
  kernel.sm_time_s = 1e-3;
  kernel.local_sm_time_s = 0.4e-3;
  kernel.sms_used = 132;
  kernel.serial_share = 1;
  kernel.transfers.push_back({topology.host(), topology.gpu_sm(0), static_cast<std::uint64_t>(2e-3 * pcie), true});
  scenario.add(kernel, 0);
  kernel.serial_share = 0;  // together: the whole kernel's SM time beside the reads
  scenario.add(kernel, 0);
  const ReplayTimings timings = scenario.run(topology);
  EXPECT_NEAR(duration(timings, 0), 2.4e-3, 3e-5);
  EXPECT_NEAR(duration(timings, 1), 2e-3, 2e-5);
}

// A kernel's local SM time applies only where it has remote and local work to run apart, and never exceeds the whole
// kernel's SM time (its local part cannot take longer than all of it).
TEST(KernelOpWork, KeepsALocalSmTimeOnlyForAKernelWithRemoteAndLocalWork) {
  const Topology topology = Topology::from_platform(testing::pcie_node(1));
  models::KernelPrediction kernel;
  kernel.sm_time_s = 1e-3;
  kernel.dram_bytes = 1'000'000;
  const OpWork local_only = kernel_op_work(kernel, topology, 0, {}, 1, 0.4e-3);
  EXPECT_EQ(local_only.serial_share, 0);
  EXPECT_FALSE(local_only.local_sm_time_s);
  kernel.sysmem_bytes = 1'000'000;
  const OpWork both = kernel_op_work(kernel, topology, 0, {}, 1, 0.4e-3);
  EXPECT_EQ(both.serial_share, 1);
  EXPECT_DOUBLE_EQ(both.local_sm_time_s.value_or(0), 0.4e-3);
  EXPECT_DOUBLE_EQ(kernel_op_work(kernel, topology, 0, {}, 1, 2e-3).local_sm_time_s.value_or(0), 1e-3);
}

// Zero-copy stores leave the SMs for the host (remote work, like host reads), over the PCIe link's other direction:
// a kernel writing 1 GB of host memory beside a 1 GB copy to the device takes as long as either alone.
TEST(KernelOpWork, HostWritesGoFromTheSmsToTheHostTheOtherWayThanHostReads) {
  const Topology topology = Topology::from_platform(testing::pcie_node(1, 32, 0));
  models::KernelPrediction kernel;
  kernel.sysmem_write_bytes = 1 * kGB;
  const OpWork work = kernel_op_work(kernel, topology, 0, {}, 0, std::nullopt);
  ASSERT_EQ(work.transfers.size(), 1u);
  EXPECT_EQ(work.transfers[0].from, topology.gpu_sm(0));
  EXPECT_EQ(work.transfers[0].to, topology.host());
  EXPECT_TRUE(work.transfers[0].remote);
  Scenario scenario;
  scenario.add(work, 0);
  scenario.add(transfer(topology.host(), topology.gpu_memory(0), 1 * kGB), 1);
  const ReplayTimings timings = scenario.run(topology);
  EXPECT_NEAR(duration(timings, 0), 1.0 / 32, 1e-3 / 32);
  EXPECT_NEAR(duration(timings, 1), 1.0 / 32, 1e-3 / 32);
}

TEST(ReplayEngine, SmallKernelsShareAGpuWithoutSlowingEachOther) {
  const Topology topology = Topology::from_platform(testing::pcie_node(1));
  Scenario scenario;
  OpWork small;
  small.sm_vertex = topology.gpu_sm(0);
  small.sm_time_s = 1e-3;
  small.sms_used = 66;  // half the GPU each
  scenario.add(small, 0);
  scenario.add(small, 1);
  const ReplayTimings timings = scenario.run(topology);
  EXPECT_NEAR(duration(timings, 0), 1e-3, 1e-6);
  EXPECT_NEAR(duration(timings, 1), 1e-3, 1e-6);
}

Memcpy pageable_copy_to_device(std::uint64_t bytes) {
  Memcpy copy;
  copy.set_kind(Memcpy::HTOD);
  copy.set_src_memory(MEMORY_KIND_PAGEABLE);
  copy.set_dst_memory(MEMORY_KIND_DEVICE);
  copy.set_bytes(bytes);
  return copy;
}

TEST(ReplayEngine, PageableCopyUpToTheFirstChunkRunsAtThePinnedRate) {
  platform::Platform node = testing::pcie_node(1, 32, 0);  // staging: 8 GB/s
  node.node.mutable_host()->set_pageable_first_chunk_to_device_bytes(1'000'000);
  const Topology topology = Topology::from_platform(node);
  Scenario scenario;
  scenario.add(memcpy_work(pageable_copy_to_device(1'000'000), topology, node), 0);
  EXPECT_NEAR(duration(scenario.run(topology), 0), 1e6 / (32 * kGB), 1e-9);
}

TEST(ReplayEngine, LargerPageableCopyIsBoundByStagingTheRest) {
  platform::Platform node = testing::pcie_node(1, 32, 0);
  node.node.mutable_host()->set_pageable_first_chunk_to_device_bytes(1'000'000);
  const Topology topology = Topology::from_platform(node);
  Scenario scenario;
  scenario.add(memcpy_work(pageable_copy_to_device(9'000'000), topology, node), 0);
  // The first chunk goes side by side with the staged 8 MB, which take 1 ms at 8 GB/s.
  EXPECT_NEAR(duration(scenario.run(topology), 0), 8e6 / (8 * kGB), 1e-9);
}

Memset memset_of(std::uint64_t bytes) {
  Memset memset;
  memset.set_bytes(bytes);
  return memset;
}

TEST(ReplayEngine, MemsetRunsAtTheGpusMeasuredMemsetRate) {
  platform::Platform node = testing::pcie_node(1);
  node.gpus[0].mutable_memory()->set_memset_bandwidth_gb_per_s(1000);  // below the DRAM link's 3352 x 0.92
  const Topology topology = Topology::from_platform(node);
  Scenario scenario;
  scenario.add(memset_work(memset_of(1'000'000'000), topology, node), 0);
  EXPECT_NEAR(duration(scenario.run(topology), 0), 1e-3, 1e-6);
}

TEST(ReplayEngine, MemsetFasterThanAStreamingKernelLeavesKernelsTheirRate) {
  platform::Platform node = testing::pcie_node(1);
  node.gpus[0].mutable_memory()->set_memset_bandwidth_gb_per_s(4000);  // above the kernels' 3352 x 0.92
  const Topology topology = Topology::from_platform(node);
  Scenario scenario;
  scenario.add(memset_work(memset_of(4'000'000'000), topology, node), 0);
  models::KernelPrediction streaming;
  streaming.dram_bytes = static_cast<std::uint64_t>(3352 * 0.92 * kGB * 1e-3);  // 1 ms of streaming reads
  scenario.add(kernel_op_work(streaming, topology, 0, {}), 0);  // after the memset, on its stream
  const ReplayTimings timings = scenario.run(topology);
  EXPECT_NEAR(duration(timings, 0), 1e-3, 1e-6);
  EXPECT_NEAR(duration(timings, 1), 1e-3, 1e-6);
}

TEST(ReplayEngine, CopyWithinAGpuRunsAtItsMeasuredRateAfterItsFixedCost) {
  platform::Platform node = testing::pcie_node(1);
  node.gpus[0].mutable_memory()->set_device_copy_bandwidth_gb_per_s(1000);
  node.node.mutable_host()->set_device_copy_fixed_ns(2000);
  const Topology topology = Topology::from_platform(node);
  Memcpy copy;
  copy.set_kind(Memcpy::DTOD);
  copy.set_bytes(1'000'000'000);
  Scenario scenario;
  scenario.add(memcpy_work(copy, topology, node), 0);
  EXPECT_NEAR(duration(scenario.run(topology), 0), 2e-6 + 1e-3, 1e-6);
}

TEST(ReplayEngine, PeerCopyRunsAtItsCopyEnginesRateAfterItsFixedCost) {
  platform::Platform node = testing::pcie_node(2, 55, 0);
  testing::add_nvlink(node, 18, 26.562);                                   // 478 GB/s per direction
  node.gpus[0].mutable_memory()->set_peer_copy_bandwidth_gb_per_s(397);  // 2xH100, 256 MiB, CUPTI
  node.node.mutable_host()->set_peer_copy_fixed_ns(1424);                  // 2xH100, 4 bytes, CUPTI
  const Topology topology = Topology::from_platform(node);
  Memcpy copy;
  copy.set_kind(Memcpy::PTOP);
  copy.set_bytes(1'000'000'000);
  copy.set_device_id(0);
  copy.set_src_device_id(0);
  copy.set_dst_device_id(1);
  Scenario scenario;
  scenario.add(memcpy_work(copy, topology, node), 0);
  const double expected = 1424e-9 + 1 * kGB / (397 * kGB);
  EXPECT_NEAR(duration(scenario.run(topology), 0), expected, expected * 1e-3);
}

// The node is routed for the transfers the replay makes, not for every pair of its 3,002 hosts (9 million routes).
TEST(ReplayEngine, AThousandGpuNodeRoutesWhatTheReplayUses) {
  const Topology topology = Topology::from_platform(testing::pcie_node(1000, 32, 0));
  Scenario scenario;
  scenario.add(transfer(topology.host(), topology.gpu_memory(999), 1 * kGB), 0);
  scenario.add(transfer(topology.gpu_memory(998), topology.gpu_memory(999), 1 * kGB), 1);  // through the host
  scenario.add(transfer(topology.gpu_memory(0), topology.host(), 1 * kGB), 2);
  const ReplayTimings timings = scenario.run(topology);
  const double shared = 1 * kGB / (16 * kGB);  // the first two share GPU 999's PCIe link
  EXPECT_NEAR(duration(timings, 0), shared, shared * 1e-3);
  EXPECT_NEAR(duration(timings, 1), shared, shared * 1e-3);
  EXPECT_NEAR(duration(timings, 2), 1.0 / 32, 1e-3 / 32);
}

TEST(TransferRoutes, EachPairOnceWhateverTheOperations) {
  OpWork copy = transfer(0, 5, 10);
  copy.transfers.push_back({5, 0, 10});
  const std::vector<OpWork> work = {copy, transfer(0, 5, 99), transfer(2, 3, 1), OpWork{}};
  EXPECT_EQ(transfer_routes(work), (std::vector<std::pair<std::size_t, std::size_t>>{{0, 5}, {2, 3}, {5, 0}}));
}

}  // namespace
}  // namespace warpsim::replay

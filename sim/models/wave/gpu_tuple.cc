#include "wave/gpu_tuple.h"

#include <algorithm>

#include "gpu_rates.h"
#include "kernel_work.h"  // kSectorBytes
#include "tensor_work.h"  // kFlopPerTensorInstruction: one tensor warp instruction's FLOP

namespace warpsim::models::wave {
namespace {

// A spec without the scattered rate (0) must not divide by zero; validation rejects it in shipped files.
constexpr double kMinLinesPerCycle = 1e-9;

// A tensor warp instruction is kFlopPerTensorInstruction FLOP; a processing block does its share of the SM's rate.
double tensor_delay(double flops_per_cycle, uint32_t processing_blocks, uint32_t warp_size) {
  if (flops_per_cycle <= 0) return warp_size;
  return std::max(1.0, kFlopPerTensorInstruction / (flops_per_cycle / std::max<uint32_t>(processing_blocks, 1)));
}

PerClass delays(const platform::SmSpec& sm) {
  const platform::Lanes& lanes = sm.lanes();
  const uint32_t pbs = sm.schedulers();
  const uint32_t ws = sm.warp_size();
  PerClass d{};
  d[index(InstClass::kFp32)] = issue_delay(lanes.fp32(), pbs, ws);
  d[index(InstClass::kInt)] = issue_delay(lanes.int32(), pbs, ws);
  d[index(InstClass::kFp64)] = issue_delay(lanes.fp64(), pbs, ws);
  d[index(InstClass::kSfu)] = issue_delay(lanes.sfu(), pbs, ws);
  d[index(InstClass::kTensor)] = tensor_delay(lanes.tensor_flops_per_cycle(), pbs, ws);
  d[index(InstClass::kLsu)] = issue_delay(lanes.ldst(), pbs, ws);
  d[index(InstClass::kOther)] = 1;  // one issue slot: these units are not warp-wide lanes the spec counts
  return d;
}

PerClass latencies(const platform::Latencies& lat, const PerClass& delay) {
  PerClass l{};
  l[index(InstClass::kFp32)] = lat.fp32();
  l[index(InstClass::kInt)] = lat.int32();
  l[index(InstClass::kFp64)] = lat.fp64();
  l[index(InstClass::kSfu)] = lat.sfu();
  // No tensor latency in the spec: a dependent tensor instruction waits at least its own issue delay.
  l[index(InstClass::kTensor)] = delay[index(InstClass::kTensor)];
  // Non-memory LSU work (shuffles, special registers) makes the MIO round trip shared-memory loads make.
  l[index(InstClass::kLsu)] = lat.shared();
  // Branches and uniform-datapath instructions: integer-like results.
  l[index(InstClass::kOther)] = lat.int32();
  return l;
}

MemoryLatencies memory_latencies(const platform::SmSpec& sm) {
  const platform::Latencies& lat = sm.latency_cycles();
  MemoryLatencies m;
  m.l1 = lat.l1_hit();
  m.l2 = lat.l2_hit();
  m.dram = lat.dram();
  m.peer = lat.peer() > 0 ? lat.peer() : lat.dram();  // unmeasured: a remote load waits like a local DRAM one
  m.host = lat.host() > 0 ? lat.host() : lat.dram();  // the same for a load from host memory
  m.shared = lat.shared();
  m.constant = lat.constant();
  // A request whose threads touch warp_size different lines takes warp_size / (lines per clock) clocks of the L1;
  // its last sector leaves that many clocks minus one after the first.
  const double lines_per_cycle = std::max(sm.l1_scattered_lines_per_cycle(), kMinLinesPerCycle);
  m.uncoal_extra = std::max(0.0, sm.warp_size() / lines_per_cycle - 1);
  return m;
}

GroupLatencyGrowth group_latency_growth(const platform::GroupLatency& curve) {
  GroupLatencyGrowth g;
  const int points =
      std::min({curve.loads_size(), curve.ratio_size(), static_cast<int>(GroupLatencyGrowth::kMaxPoints)});
  for (int i = 0; i < points; ++i) {
    g.loads[static_cast<std::size_t>(i)] = curve.loads(i);
    g.ratio[static_cast<std::size_t>(i)] = curve.ratio(i);
  }
  g.points = static_cast<std::size_t>(std::max(points, 0));
  return g;
}

Bandwidths bandwidths(const platform::GpuSpec& gpu, const GpuRates& rates) {
  Bandwidths b;
  b.shared_per_sm = 1;  // the L1 data stage passes one shared-memory wavefront per clock
  b.l1_per_sm = gpu.sm().l1_bytes_per_cycle();
  b.l2 = bytes_per_cycle(rates.l2_bytes_per_s, rates.clock_hz);
  b.dram = bytes_per_cycle(rates.dram_sustained_bytes_per_s, rates.clock_hz);
  b.dram_scattered = bytes_per_cycle(rates.dram_scattered_bytes_per_s, rates.clock_hz);
  b.l2_scattered = bytes_per_cycle(rates.l2_scattered_bytes_per_s, rates.clock_hz);
  b.l2_write = bytes_per_cycle(rates.l2_write_bytes_per_s, rates.clock_hz);
  b.l2_scattered_write = bytes_per_cycle(rates.l2_scattered_write_bytes_per_s, rates.clock_hz);
  b.uncoal_per_sm = gpu.sm().l1_scattered_lines_per_cycle() * static_cast<double>(kSectorBytes);  // a sector a line
  b.l2_slice_atomics = gpu.memory().l2_slice_atomics_per_cycle();
  b.l2_hot_slice = gpu.memory().l2_slices() > 0 ? gpu.memory().l2_hot_slice_sectors_per_cycle() : 0;
  return b;
}

}  // namespace

double issue_delay(double lanes_per_sm, uint32_t processing_blocks, uint32_t warp_size) {
  if (lanes_per_sm <= 0) return warp_size;
  const double lanes_per_pb = lanes_per_sm / std::max<uint32_t>(processing_blocks, 1);
  return std::max(1.0, warp_size / lanes_per_pb);
}

GpuTuple gpu_tuple(const platform::GpuSpec& gpu) {
  GpuTuple t;
  t.sm_count = gpu.sm_count();
  t.processing_blocks = std::max<uint32_t>(gpu.sm().schedulers(), 1);
  t.warp_size = gpu.sm().warp_size();
  const GpuRates rates = GpuRates::of(gpu);
  t.clock_hz = rates.clock_hz;
  t.delay = delays(gpu.sm());
  // lanes.fp16 counts FP16 results per clock; an HFMA2 lane makes two.
  t.hfma2_delay = issue_delay(gpu.sm().lanes().fp16() / 2, t.processing_blocks, t.warp_size);
  const double adu_rate = gpu.sm().adu_warp_instructions_per_cycle();
  t.adu_delay = adu_rate > 0 ? t.processing_blocks / adu_rate : 0;
  t.latency = latencies(gpu.sm().latency_cycles(), t.delay);
  t.memory = memory_latencies(gpu.sm());
  t.memory.dram_group = group_latency_growth(gpu.memory().dram_group_latency());
  t.band = bandwidths(gpu, rates);
  t.block_turnaround = gpu.block_turnaround_ns() * 1e-9 * rates.clock_hz;
  t.l2_slices = gpu.memory().l2_slices();
  t.dram_concurrency = gpu.memory().dram_concurrency();
  t.peer_concurrency = gpu.memory().peer_concurrency();
  return t;
}

}  // namespace warpsim::models::wave

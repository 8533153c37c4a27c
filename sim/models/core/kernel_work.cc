#include "kernel_work.h"

#include <algorithm>

#include "numeric.h"

namespace warpsim::models {
namespace {

// The links metrics of a GPU without NVLink: CUPTI hands back 2^63 for nvlrx__bytes (every single-GPU H100 and H200
// recording with the links metrics, e.g. vendor_libs and the host-memory sweeps), not a count. Such a value is none.
uint64_t nvlink_bytes(uint64_t recorded) { return recorded >= (uint64_t{1} << 63) ? 0 : recorded; }

// Thread instructions of a 32-lane class become warp instructions at full warps: a lower bound under divergence.
constexpr double kThreadsPerWarp = 32;

// Of a kernel's integer multiply-adds, the share that are IMAD.WIDE: the main loop's where it has any (what runs
// most), else the code's; 0 without a summary that counts them.
double wide_multiply_share(const SassSummary* sass) {
  if (sass == nullptr) return 0;
  if (sass->main_loop_integer_multiplies() > 0)
    return as_double(sass->main_loop_wide_integer_multiplies()) / as_double(sass->main_loop_integer_multiplies());
  if (sass->integer_multiplies() > 0)
    return as_double(sass->wide_integer_multiplies()) / as_double(sass->integer_multiplies());
  return 0;
}

// The FMA pipe's instructions that are not floating point (smsp__inst_executed_pipe_fma counts IMAD with FFMA):
// thread instructions / 32 are whole warps, so divergent floating-point code leaves some FP32 work counted here.
double fma_integer(const KernelCounters& c) {
  const PipeInstructions& p = c.pipes();
  const ThreadInstructions& t = c.thread_instructions();
  if (!p.has_fma() || !t.has_fp32()) return 0;
  return std::max(0.0, as_double(p.fma()) - as_double(t.fp32() + t.fp16()) / kThreadsPerWarp);
}

// The FMA pipe's HFMA2s (PipeWork.fma_fp16): the hfma thread instructions / 32 less the HFMA2.MMA the tensor pipe ran
// (the compiler's FP16 FMAs and register moves on its HMMA sub-pipe: the sub-pipe's count less its matrix share in
// the SASS summary, all of it without one), at most `fma_left` (the pipe's count less its integer work). Most kernels'
// hfma counts are those moves alone (srad, spmv_csr, matmul_tiled: hfma / 32 = the HMMA sub-pipe's count).
double fma_fp16(const KernelCounters& c, const SassSummary* sass, double fma_left) {
  const double hfma2 = as_double(c.thread_instructions().hfma()) / kThreadsPerWarp;
  const bool split = sass != nullptr && sass->has_matrix_instructions() && sass->has_mma_pipe_fp16_fmas();
  const double mma_pipe_fp16 = as_double(c.pipes().tensor_hmma()) * (split ? 1 - matrix_share(sass) : 1);
  return std::clamp(hfma2 - mma_pipe_fp16, 0.0, fma_left);
}

PipeWork pipe_work(const KernelCounters& c, const SassSummary* sass) {
  const PipeInstructions& p = c.pipes();
  const ThreadInstructions& t = c.thread_instructions();
  const WarpInstructions& w = c.warp_instructions();
  PipeWork work;
  work.fma = p.has_fma() ? as_double(p.fma()) : as_double(t.fp32()) / kThreadsPerWarp;
  work.fma_integer = fma_integer(c);
  work.fma_wide_integer = work.fma_integer * wide_multiply_share(sass);
  work.fma_fp16 = fma_fp16(c, sass, std::max(0.0, work.fma - work.fma_integer));
  work.alu = as_double(p.alu());
  work.fp64 = p.has_fp64() ? as_double(p.fp64()) : as_double(t.fp64()) / kThreadsPerWarp;
  work.xu = as_double(p.xu());
  work.lsu = p.has_lsu() ? as_double(p.lsu())
                         : as_double(w.global_ld() + w.global_st() + w.global_atom() + w.global_red() + w.local_ld() +
                                     w.local_st() + w.shared_ld() + w.shared_st() + w.shared_atom());
  work.tensor = tensor_pipe_instructions(p);  // the pipe's counter, else its sub-pipes
  work.adu = as_double(p.adu());
  return work;
}

// Without smsp__inst_executed, the pipes' own counts: every issued instruction goes to exactly one pipe.
double issue_slots(const KernelCounters& c, const PipeWork& pipes) {
  if (c.warp_instructions().has_total()) return as_double(c.warp_instructions().total());
  const PipeInstructions& p = c.pipes();
  return pipes.fma + pipes.alu + pipes.fp64 + pipes.xu + pipes.lsu + pipes.tensor +
         as_double(p.cbu() + p.uniform() + p.tma());
}

bool reads_global(const KernelCounters& c) {
  const WarpInstructions& w = c.warp_instructions();
  return w.global_ld() + w.global_atom() + w.ldgsts() + w.tma() > 0;
}

// The read-modify-write traffic of partial-sector stores, read once and written back once (kernel_work.h): the L2's
// write-miss sectors, or DRAM's read sectors beyond the L2's read sectors where that is more. The write-miss count
// sees fills that reads hide: local_spill's local_array_shuffle (H100) has 18.6 M write-miss sectors while its
// DRAM reads (71.7 M sectors) stay below its L2 reads (104.5 M, many of them L2 hits). The L2's read count is an
// upper bound on the reads that can miss (on GH100 it counts a far-partition access in both partitions), so the
// excess does not take ordinary read misses, even with the L2 fetching two sectors per miss, for write fills:
// workloads/microbench_dram_pattern's random and column-walk gathers read 0.95-1.0 DRAM sectors per L2 read sector,
// its scattered stores 5.7-6.0 (63.9-67.0 M write-miss sectors for 59.7-62.9 M of excess).
uint64_t partial_write_bytes(const MemoryTraffic& m) {
  if (!m.has_l2_read_sectors() || !m.has_dram_read_bytes()) return 0;
  const uint64_t dram_read_sectors = m.dram_read_bytes() / kSectorBytes;
  const uint64_t excess = dram_read_sectors > m.l2_read_sectors() ? dram_read_sectors - m.l2_read_sectors() : 0;
  const uint64_t fills = std::max<uint64_t>(excess, m.l2_device_write_miss_sectors());
  if (fills == 0) return 0;
  return std::min(2 * fills * kSectorBytes, m.dram_read_bytes() + m.dram_write_bytes());
}

// Sectors in requests of one sector each, from requests R and sectors S taken as a mix of one-sector and whole-line
// requests: R = S1 + S4 / 4 and S = S1 + S4 give S1 = (4R - S) / 3 (kernel_work.h).
double single_sector_request_sectors(uint64_t requests, uint64_t sectors) {
  const double single =
      (kSectorsPerCoalescedRequest * as_double(requests) - as_double(sectors)) / (kSectorsPerCoalescedRequest - 1);
  return std::clamp(single, 0.0, as_double(sectors));
}

std::optional<double> l2_single_sector_read_bytes(const MemoryTraffic& m) {
  if (!m.has_l2_tex_read_requests() || !m.has_l2_tex_read_sectors()) return std::nullopt;
  return single_sector_request_sectors(m.l2_tex_read_requests(), m.l2_tex_read_sectors()) *
         static_cast<double>(kSectorBytes);
}

// Of the L2's written bytes (`written`), the single-sector stores' share of the L1/TEX's write sectors (kernel_work.h).
std::optional<double> l2_single_sector_write_bytes(const MemoryTraffic& m, uint64_t written) {
  if (!m.has_l2_tex_write_requests() || !m.has_l2_tex_write_sectors()) return std::nullopt;
  if (m.l2_tex_write_sectors() == 0) return 0.0;
  const double single = single_sector_request_sectors(m.l2_tex_write_requests(), m.l2_tex_write_sectors());
  return single / as_double(m.l2_tex_write_sectors()) * as_double(written);
}

}  // namespace

KernelWork kernel_work(const KernelCounters& counters, const SassSummary* sass) {
  const MemoryTraffic& m = counters.memory();
  KernelWork work;
  work.pipes = pipe_work(counters, sass);
  work.issue_slots = issue_slots(counters, work.pipes);
  work.tensor_flops = tensor_flops(counters, sass);
  work.l1_bytes = as_double(m.l1_bytes());
  work.shared_wavefronts = as_double(m.shared_wavefronts());
  if (m.has_l1_lgds_data_wavefronts()) work.lg_data_wavefronts = as_double(m.l1_lgds_data_wavefronts());
  work.reads_global = reads_global(counters);
  work.l2_slice_atomic_sectors =
      as_double(m.l2_atom_sectors_busiest_slice()) + as_double(m.l2_red_sectors_busiest_slice());
  work.l2_busiest_slice_sectors = as_double(m.l2_sectors_busiest_slice());
  work.dram_bytes = m.dram_read_bytes() + m.dram_write_bytes();
  work.dram_read_bytes = m.dram_read_bytes();
  work.dram_partial_write_bytes = partial_write_bytes(m);
  work.l2_bytes = m.l2_bytes();
  work.l2_write_bytes = std::min(m.l2_write_sectors() * kSectorBytes, m.l2_bytes());
  work.l2_single_sector_read_bytes = l2_single_sector_read_bytes(m);
  work.l2_single_sector_write_bytes = l2_single_sector_write_bytes(m, work.l2_write_bytes);
  // The L2 sees remote accesses by aperture; NVLink receive bytes also count traffic other GPUs send us.
  // Either counter may miss a kernel's peer reads: on H200 an SM loading from the peer GPU's memory left the local
  // L2's peer aperture at 0 sectors while NVLink received 302 MB (remote_access_sweep, 100% remote), so the larger
  // of the two counts. NVLink bytes include the link's protocol (302 MB received for 268 MB read).
  work.peer_bytes = std::max<uint64_t>(m.l2_peer_sectors() * kSectorBytes, nvlink_bytes(m.nvlink_rx_bytes()));
  work.peer_read_bytes = std::max(as_double(m.l2_peer_sectors() * kSectorBytes),
                                  as_double(nvlink_bytes(m.nvlink_rx_bytes())) / kNvlinkReceivedPerByteRead);
  // Host memory a kernel reads directly (zero-copy): the PCIe bytes it received (pcie__read_bytes, the links
  // metrics), protocol included as for NVLink. workloads/remote_access --remote host (H100): 293 MB received for 268 MB
  // read; a kernel that reads no host memory receives 0-7 KB. lts__t_sectors_aperture_sysmem is not used: under the
  // range profiler every kernel shows 17,000-26,000 sysmem sectors (0.55-0.85 MB), empty or not, on H100 and H200
  // alike (the profiler's own traffic), and the kernel that reads 268 MB from the host shows 404 MB. Without the
  // links metrics a kernel's host reads are 0 (not modelled).
  work.sysmem_bytes = m.pcie_read_bytes();
  work.host_read_bytes = as_double(work.sysmem_bytes) / kPcieReceivedPerByteRead;
  work.sysmem_write_bytes = m.pcie_write_bytes();
  return work;
}

}  // namespace warpsim::models

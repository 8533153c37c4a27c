#pragma once
// A kernel's counters turned into the work its SMs and memories must do, as kernel totals. Models divide by blocks.
//
// Counters come from the CUPTI range profiler (proto/trace.proto names the metric behind each field). Where a pipe's
// own counter is missing, a thread-level or warp-level counter that maps onto it stands in (see each field); where
// nothing maps, the work is 0 and that pipe cannot be the limiter.
#include <cstdint>
#include <optional>

#include "tensor_work.h"
#include "trace.pb.h"

namespace warpsim::models {

/// Warp instructions issued to each execution pipe (smsp__inst_executed_pipe_<pipe>.sum).
struct PipeWork {
  double fma = 0;  // FP32 pipe; fallback: fp32 thread instructions / 32
  // Of fma, the integer multiply-adds (IMAD forms), which run on the FMA-heavy pipe alone: fma less the FP32 and FP16
  // thread instructions / 32 (0 without those counters), and of them the 64-bit IMAD.WIDE, at their share of the
  // SASS summary's integer multiply-adds in the main loop (else the code; 0 without a summary).
  double fma_integer = 0;
  double fma_wide_integer = 0;
  // Of fma, the packed FP16 FMAs (HFMA2), which run on the FMA-heavy pipe alone (workloads/microbench_fp16): the hfma
  // thread instructions / 32 less the HFMA2.MMA the tensor pipe ran (kernel_work.cc), at most what fma leaves beside
  // fma_integer; 0 without the counter.
  double fma_fp16 = 0;
  double alu = 0;     // integer and logic pipe
  double fp64 = 0;    // fallback: fp64 thread instructions / 32
  double xu = 0;      // special functions, conversions
  double lsu = 0;     // load/store; fallback: the warp-level global, local and shared memory instructions
  double tensor = 0;  // all tensor sub-pipes (hmma, imma, dmma, gmma): instructions; their work is tensor_flops
  // The address-divergence unit's (constant-bank loads, branches, barriers; smsp__inst_executed_pipe_adu, recorded
  // since 2026-11-29): one unit an SM (GpuSpec sm.adu_warp_instructions_per_cycle). 0 in older traces.
  double adu = 0;
};

struct KernelWork {
  double issue_slots = 0;  // warp instructions issued (smsp__inst_executed.sum); fallback: the pipes' sum
  PipeWork pipes;
  TensorFlops tensor_flops;      // tensor-core work by input type (tensor_work.h)
  double l1_bytes = 0;           // through the L1 tag stage: global, local, texture (l1tex__t_bytes.sum)
  double shared_wavefronts = 0;  // shared-memory data-stage passes (l1tex__data_pipe_lsu_wavefronts_mem_shared.sum)
  // Global and local data-stage passes (l1tex__data_pipe_lsu_wavefronts_mem_lgds.sum); unset in older traces.
  std::optional<double> lg_data_wavefronts;
  bool reads_global = false;  // any global load instruction (ld, ldgsts, tma, atomics)
  // Atomic sectors of the busiest L2 slice (lts__t_sectors_op_atom.max + lts__t_sectors_op_red.max): a global atomic
  // executes in the slice holding its address, so atomics to few addresses queue there. The two maxima may come from
  // different slices, so this is at most what one slice did (exact for a kernel with one kind). 0 when unrecorded.
  double l2_slice_atomic_sectors = 0;
  // Sectors of the busiest L2 slice, every kind (lts__t_sectors.max): beyond its share, a hot spot's. 0 when
  // unrecorded.
  double l2_busiest_slice_sectors = 0;
  // Bytes per level, for the replay's memory resources and links.
  uint64_t dram_bytes = 0;       // dram__bytes_read + dram__bytes_write
  uint64_t dram_read_bytes = 0;  // of dram_bytes, dram__bytes_read
  // Of dram_bytes, the read-modify-write of partial-sector stores that missed in the L2: the L2 reads such a sector
  // from DRAM and later writes it back, two random single-sector accesses (workloads/microbench_dram_pattern). The
  // fills are the larger of the L2's write-miss sectors (lts__t_sectors_aperture_device_op_write_lookup_miss; stores
  // that cover their sectors are not counted: microbench_dram_pattern's whole-line stores to 256 MiB show 0) and the
  // sectors DRAM read beyond every sector the L2 was asked to read (no read asks for them; the only measure in traces
  // without the write-miss counter). Each counts twice, once read and once written back.
  uint64_t dram_partial_write_bytes = 0;
  uint64_t l2_bytes = 0;  // lts__t_bytes
  // Of l2_bytes, the written sectors' (lts__t_sectors_op_write x 32): stores, reductions' and the L2's own writes. The
  // L2 takes them in slower than it serves reads (workloads/microbench_l2_hotspot). 0 where unrecorded.
  uint64_t l2_write_bytes = 0;
  // Of the reads the L1/TEX sent the L2, the bytes in requests of one sector each, taking the requests as a mix of
  // one-sector and four-sector (whole-line) ones with the recorded requests and sectors (lts__t_{requests,sectors}_
  // srcunit_tex_op_read): S1 = (4 requests - sectors) / 3. The L2 serves such a request's sector at about half the
  // rate of a line's (workloads/microbench_l2_scatter: 1.00 sectors per request at 4350 GB/s, 3.86 at 7000-9000). A
  // time linear in requests and sectors gives the same answer for any mix, two-sector requests included. Unset in
  // traces recorded before 2026-11-26's counters.
  std::optional<double> l2_single_sector_read_bytes;
  // Of l2_write_bytes, those of stores that write one sector of a line each: the L1/TEX's write requests and sectors
  // (lts__t_{requests,sectors}_srcunit_tex_op_write) split as the reads', their single-sector share of every written
  // sector (GH100's L2 counts 1.5 write sectors per sector stored, one-sector stores or whole lines alike:
  // workloads/microbench_l2_scatter). Such a store costs the L2 about twice a sector of a whole line. Unset in traces
  // recorded before 2026-11-26's counters.
  std::optional<double> l2_single_sector_write_bytes;
  uint64_t peer_bytes = 0;  // the larger of lts__t_sectors_aperture_peer * 32 and nvlrx__bytes (kernel_work.cc)
  // What the kernel's loads read from a peer GPU, without the link's protocol: the larger of the peer aperture's
  // bytes and nvlrx__bytes / kNvlinkReceivedPerByteRead.
  double peer_read_bytes = 0;
  uint64_t sysmem_bytes = 0;  // host memory read directly (zero-copy): pcie__read_bytes, where recorded
  double host_read_bytes = 0;  // what the kernel's loads read from host memory: sysmem_bytes / kPcieReceivedPerByteRead
  // Host memory written directly (zero-copy stores): pcie__write_bytes, the link's protocol included (1.125 bytes a
  // byte stored: workloads/remote_access --remote host --direction write on H200, 302.0 MB sent for 268.4 MB), where
  // recorded. A kernel that writes no host memory sends 0-2 KB.
  uint64_t sysmem_write_bytes = 0;
};

/// Bytes in one L2 sector: the aperture counters count sectors.
inline constexpr uint64_t kSectorBytes = 32;

/// NVLink bytes received per byte a kernel reads from a peer GPU (the link's protocol): MEASURED 1.128, the median
/// over 192 kernels of ws_microbench_dram_inflight --peer 1 recorded with the links metrics on 2xH100 (2026-11-26;
/// workloads/remote_access's 100%-remote kernels: 302.5 MB received for 268.4 MB read, 1.127).
inline constexpr double kNvlinkReceivedPerByteRead = 1.128;

/// PCIe bytes received per byte a kernel reads from host memory (the link's protocol): MEASURED 1.094, the 100%-host
/// kernels of workloads/remote_access --remote host recorded with the links metrics on H200 (2026-11-28: 293.6 MB
/// received for 268.4 MB read, every launch; H100: 293 MB).
inline constexpr double kPcieReceivedPerByteRead = 1.094;

/// Sectors of a coalesced warp request, 32 threads x 4 bytes to consecutive addresses: one 128-byte line.
inline constexpr double kSectorsPerCoalescedRequest = 4;

/// The work of a kernel's counters; `sass`, the kernel's SASS summary where the caller has it, tells the tensor work
/// of a kernel recorded without tensor operation counts (tensor_work.h).
KernelWork kernel_work(const KernelCounters& counters, const SassSummary* sass = nullptr);

}  // namespace warpsim::models

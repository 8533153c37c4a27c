#pragma once
/// @brief A static summary of each kernel's SASS from the cubin (ELF) the driver loads: how far apart the compiler
/// issues instructions and how much of the latency of loads and other variable-latency instructions it covers with
/// other work, and at how many places a warp stalls for such results (Volta-and-later control codes). Pure: no CUDA;
/// reads the ELF with glibc's <elf.h> structs only.

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "instruction_counts.h"
#include "trace.pb.h"

namespace warpsim::trace {

/// Counts over one function's code (each instruction once), not over the executed instructions.
struct SassFunctionSummary {
  std::string name;                    ///< mangled, from the section name `.text.<name>`
  std::uint64_t instructions = 0;      ///< 16-byte instructions with a stall count > 0 (not the NOP padding at the end)
  std::uint64_t stall_cycles = 0;      ///< sum of their stall counts: the compiler's issue spacing
  std::uint64_t variable_latency = 0;  ///< instructions that set a scoreboard (loads, MUFU, S2R, shuffles...)
  std::uint64_t cover_cycles = 0;      ///< per such producer, the stall cycles from it to its first waiting instruction
  std::uint64_t uncovered = 0;         ///< producers with no instruction waiting on their scoreboard later in the code
  std::uint64_t stall_points = 0;      ///< first waiters for results issued since the previous one (sass_summary.cc)
  std::uint64_t global_loads = 0;      ///< of the covered producers, global-memory loads (LDG)
  std::uint64_t global_stall_points = 0;       ///< stall_points counted over the global loads alone
  std::uint64_t global_cover_cycles = 0;       ///< of cover_cycles, the global loads' own
  std::uint64_t widest_global_load_bytes = 0;  ///< the widest one's bytes per thread (4: float, 16: float4)
  std::uint64_t barriers = 0;                  ///< block barriers (BAR.SYNC: __syncthreads) in the code
  /// Instructions of the tensor pipe's HMMA sub-pipe in the code: matrix instructions (HMMA, DMMA) and the FP16 FMAs
  /// the compiler issues to the MMA pipe (HFMA2.MMA: FP16 arithmetic, and register moves such as
  /// `HFMA2.MMA R0, -RZ, RZ, 0, 0`), which the sub-pipe's counter counts alike.
  std::uint64_t matrix_instructions = 0;
  std::uint64_t mma_pipe_fp16_fmas = 0;
  /// Integer multiply-adds in the code, all on the FMA-heavy pipe: IMAD in every form (IMAD.MOV, IMAD.X, ...) and
  /// IMAD.WIDE, and of them the 64-bit IMAD.WIDE, which takes that pipe twice as long (workloads/microbench_pipes).
  std::uint64_t integer_multiplies = 0;
  std::uint64_t wide_integer_multiplies = 0;
  /// The main loop: of the innermost loops (a backward branch's span that holds no other), the one of the most
  /// instructions, where the counts over the whole code mix an unrolled loop with its remainder copies. Its
  /// instructions (0: the code has no loop), their stall cycles, and its global loads and their stall points counted
  /// as above over the loads and first waiters inside it.
  std::uint64_t main_loop_instructions = 0;
  std::uint64_t main_loop_stall_cycles = 0;
  std::uint64_t main_loop_global_loads = 0;
  std::uint64_t main_loop_global_stall_points = 0;
  std::uint64_t main_loop_integer_multiplies = 0;       ///< integer_multiplies inside the main loop
  std::uint64_t main_loop_wide_integer_multiplies = 0;  ///< wide_integer_multiplies inside the main loop
  /// Of the covered producers, constant-bank loads with a scoreboard (LDC), the stalls counted over them alone, in
  /// the code and in the main loop, and of cover_cycles their own.
  std::uint64_t constant_loads = 0;
  std::uint64_t constant_stall_points = 0;
  std::uint64_t constant_cover_cycles = 0;
  std::uint64_t main_loop_constant_stall_points = 0;
  /// Over the executed instructions, where the function's instruction counts were given (summarize_cubin): warp
  /// executions, and the stall counts summed over them (executed_stall_cycles / executed_instructions: the issue
  /// spacing the warps saw). 0 without counts; also when a counted offset lies outside the code
  /// (`executions_outside_code`: counts of other code).
  std::uint64_t executed_instructions = 0;
  std::uint64_t executed_stall_cycles = 0;
  bool executions_outside_code = false;
};

/// Whether `image` starts like an ELF file: what distinguishes a cubin from a fatbin or PTX text handed over as one.
bool is_elf_image(std::span<const std::byte> image);

/// Every kernel function (`.text.*` PROGBITS section) of a cubin, in section order. std::nullopt, never a crash, when
/// the buffer is not a 64-bit little-endian ELF or is cut short or corrupt (a section or the section table lies
/// outside it, a section name is not terminated, a code section is not whole instructions). An ELF that is no cubin
/// for Volta or later (another machine, a Maxwell/Pascal cubin with another instruction format) gives an empty list.
/// With `executions`, each function counted there also gets its executed fields.
std::optional<std::vector<SassFunctionSummary>> summarize_cubin(std::span<const std::byte> cubin,
                                                                const ExecutionsByFunction* executions = nullptr);

/// Puts the static summary of a kernel's code (from the module the driver loaded, or a cubin given later) on a
/// kernel record, replacing any it had.
void set_sass(KernelLaunch& kernel, const SassFunctionSummary& summary);

/// The summaries of the functions of every module loaded so far, by mangled name. Thread-safe: modules load on any
/// application thread (with lazy loading, at a kernel's first launch) while kernel records are built on CUPTI's.
class SassSummaries {
 public:
  /// A function of a name already known replaces it (the same module loaded again in another context, say).
  void add(std::vector<SassFunctionSummary> functions);
  std::optional<SassFunctionSummary> find(const std::string& name) const;
  std::size_t size() const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, SassFunctionSummary> by_name_;
};

}  // namespace warpsim::trace

#include "sass_summary.h"

#include <elf.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <string_view>
#include <utility>

namespace warpsim::trace {
namespace {

// The ELF structs are copied out of the buffer as they lie: that reads a little-endian file right only on a
// little-endian host (every host the tracer runs on).
static_assert(std::endian::native == std::endian::little, "summarize_cubin reads little-endian ELF fields natively");

// Volta and later: every SASS instruction is 128 bits, and its top 23 bits (bits 105..127, so bits 41..63 of the
// high 64-bit word) are the control code the compiler sets for the warp scheduler (layout as in CuAssembler's
// CuSMVersion.splitControlCodes_7x_8x; checked on nvcc 13.0 cubins for sm_75 to sm_121):
//   stall [0,4) cycles to wait before the warp issues its next instruction
//   yield [4], read barrier [8,11): not used here
//   write barrier [5,8) the scoreboard (0-5) a variable-latency instruction releases once its result is written
//                       (7: none)
//   wait mask [11,17) bit b: wait until scoreboard b is released before issuing
constexpr std::size_t kInstructionBytes = 16;
constexpr std::size_t kHighWordOffset = 8;
constexpr unsigned kControlShift = 41;
constexpr std::uint64_t kStallMask = 0xf;
constexpr unsigned kWriteBarrierShift = 5;
constexpr std::uint64_t kBarrierMask = 0x7;
constexpr std::uint32_t kNoBarrier = 7;
constexpr std::size_t kBarrierCodes = kBarrierMask + 1;  // 0-5 scoreboards, 6 unused, 7 none
constexpr unsigned kWaitMaskShift = 11;
constexpr std::uint64_t kWaitMaskMask = 0x3f;
constexpr std::uint32_t kScoreboards = 6;

constexpr std::string_view kFunctionSectionPrefix = ".text.";

// Where a cubin's e_flags keep the SM number (LLVM's BinaryFormat/ELF.h, EF_CUDA_SM and EF_CUDA_SM_MASK): in the low
// byte under ELF ABI version 7 (ELFABIVERSION_CUDA_V1, older toolkits), in bits 8-15 under later versions (CUDA 13.0
// writes version 8 for every target, sm_90 included: e_flags 0x06005a04).
constexpr unsigned char kCudaAbiV1 = 7;
constexpr std::uint32_t kSmMaskV1 = 0xff;
constexpr std::uint32_t kSmShiftV2 = 8;
constexpr std::uint32_t kSmMaskV2 = 0xff;
constexpr std::uint32_t kFirstVoltaSm = 70;  // Maxwell and Pascal pack 3 instructions and a control word in 32 bytes

// Whether [offset, offset + size) lies inside a buffer of `total` bytes, without overflowing.
bool fits(std::uint64_t total, std::uint64_t offset, std::uint64_t size) {
  return offset <= total && size <= total - offset;
}

template <typename T>
std::optional<T> read_struct(std::span<const std::byte> bytes, std::uint64_t offset) {
  if (!fits(bytes.size(), offset, sizeof(T))) return std::nullopt;
  T value{};
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

std::optional<Elf64_Ehdr> read_header(std::span<const std::byte> image) {
  if (!is_elf_image(image)) return std::nullopt;
  auto header = read_struct<Elf64_Ehdr>(image, 0);
  if (!header || header->e_ident[EI_CLASS] != ELFCLASS64 || header->e_ident[EI_DATA] != ELFDATA2LSB)
    return std::nullopt;
  return header;
}

// Sections without file contents (NULL, NOBITS such as .nv.shared.*) may name any offset: they are never read.
bool has_bytes(const Elf64_Shdr& section) { return section.sh_type != SHT_NULL && section.sh_type != SHT_NOBITS; }

// The section headers, with ELF's extended numbering (a count or string-table index too large for the file header
// lives in section 0) resolved, and the index of the section-name string table.
struct SectionTable {
  std::vector<Elf64_Shdr> sections;
  std::uint64_t names_index = 0;
};

std::optional<SectionTable> read_section_table(std::span<const std::byte> image, const Elf64_Ehdr& header) {
  SectionTable table;
  if (header.e_shoff == 0) return table;  // no sections at all
  if (header.e_shentsize != sizeof(Elf64_Shdr)) return std::nullopt;
  const auto first = read_struct<Elf64_Shdr>(image, header.e_shoff);
  if (!first) return std::nullopt;
  const std::uint64_t count = header.e_shnum != 0 ? header.e_shnum : first->sh_size;
  table.names_index = header.e_shstrndx != SHN_XINDEX ? header.e_shstrndx : first->sh_link;
  if (count > (image.size() - header.e_shoff) / sizeof(Elf64_Shdr)) return std::nullopt;
  if (table.names_index >= count) return std::nullopt;
  table.sections.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    auto section = read_struct<Elf64_Shdr>(image, header.e_shoff + i * sizeof(Elf64_Shdr));
    if (!section) return std::nullopt;
    if (has_bytes(*section) && !fits(image.size(), section->sh_offset, section->sh_size)) return std::nullopt;
    table.sections.push_back(*section);
  }
  return table;
}

// A section's name: NUL-terminated inside the string table, or nullopt.
std::optional<std::string_view> section_name(std::span<const std::byte> image, const Elf64_Shdr& names,
                                             std::uint32_t offset) {
  if (!has_bytes(names) || offset >= names.sh_size) return std::nullopt;
  const char* begin = reinterpret_cast<const char*>(image.data() + names.sh_offset + offset);
  const auto* end = static_cast<const char*>(std::memchr(begin, '\0', names.sh_size - offset));
  if (end == nullptr) return std::nullopt;
  return std::string_view(begin, static_cast<std::size_t>(end - begin));
}

// The SM number a cubin was compiled for; 0 when the file is not a CUDA ELF.
std::uint32_t cubin_sm(const Elf64_Ehdr& header) {
  if (header.e_machine != EM_CUDA) return 0;
  if (header.e_ident[EI_ABIVERSION] <= kCudaAbiV1) return header.e_flags & kSmMaskV1;
  return (header.e_flags >> kSmShiftV2) & kSmMaskV2;
}

struct Control {
  std::uint32_t stall = 0;
  std::uint32_t write_barrier = kNoBarrier;
  std::uint32_t wait_mask = 0;
  bool global_load = false;
  bool constant_load = false;  // LDC (with a scoreboard: it is a producer)
  bool barrier = false;
  bool matrix = false;             // HMMA, DMMA
  bool mma_pipe_fp16_fma = false;  // HFMA2.MMA
  bool integer_multiply = false;   // IMAD, IMAD.WIDE
  bool wide_integer_multiply = false;
  std::uint32_t access_bytes = 0;  // a global load's bytes per thread
};

// The opcode, the low 12 bits of the instruction's first word. LDG (a global-memory load, any width and cache
// modifier) is 0x381 in Turing cubins and 0x981 from Ampere on: checked on nvcc 13.0 cubins of loads of 4 to 16 bytes
// for sm_75, 80, 86, 89, 90, 100 and 120 (shared loads, LDS, are 0x984 on all of them).
constexpr std::uint64_t kOpcodeMask = 0xfff;
constexpr std::array<std::uint64_t, 2> kGlobalLoadOpcodes = {0x381, 0x981};
// LDC (a constant-bank load: LDC.64 of a kernel argument, an indexed __constant__ array) is 0xb82 on sm_75 to sm_120:
// found on nvcc 13.0 cubins of kernels with 1 and 3 indexed __constant__ reads (the only opcode with a scoreboard whose
// count followed them; sm_100 and sm_120 load two more kernel arguments with it); ULDC, the uniform datapath's
// constant load, is 0xab9 on sm_90 and sets no scoreboard.
constexpr std::uint64_t kConstantLoadOpcode = 0xb82;
// BAR (__syncthreads: BAR.SYNC) is 0xb1d for sm_75, 80 and 90: found on nvcc 13.0 cubins of one kernel with 0, 1 and
// 3 __syncthreads (the only opcode whose count followed them).
constexpr std::uint64_t kBarrierOpcode = 0xb1d;
// On the tensor pipe's HMMA sub-pipe (sm_90, cuobjdump of nvcc 13.0 cubins): HMMA (m16n8k16 FP16 and m16n8k8 TF32
// alike) 0x23c, DMMA 0x23f, and HFMA2.MMA 0x235 (register operands) and 0x435 (an immediate: the compiler's register
// moves); plain HFMA2, on the FMA pipe, is 0x231.
constexpr std::array<std::uint64_t, 2> kMatrixOpcodes = {0x23c, 0x23f};
constexpr std::array<std::uint64_t, 2> kMmaPipeFp16FmaOpcodes = {0x235, 0x435};
// Integer multiply-adds: the low 9 bits of the opcode (bits 9-11 are the operand form: registers, an immediate, a
// constant) are 0x024 for IMAD and its forms (IMAD.MOV, IMAD.X: 0x224, 0x424, 0x824 seen) and 0x025 for IMAD.WIDE
// (0x225, 0x825 seen): cuobjdump of nvcc 13.0 sm_90 cubins (workloads/microbench_pipes, 2026-11-27).
constexpr std::uint64_t kOperationMask = 0x1ff;
constexpr std::uint64_t kIntegerMultiplyOperation = 0x024;
constexpr std::uint64_t kWideIntegerMultiplyOperation = 0x025;
// A load's access size, bits 9-11 of the high word: 4, 5, 6 for 32, 64, 128 bits (checked on the same cubins), 0-3
// for the 8- and 16-bit forms (unsigned and signed), 7 for the other 128-bit form.
constexpr unsigned kAccessSizeShift = 9;
constexpr std::uint64_t kAccessSizeMask = 0x7;
constexpr std::array<std::uint32_t, 8> kAccessBytes = {1, 1, 2, 2, 4, 8, 16, 16};

Control control_of(std::span<const std::byte> instruction) {
  std::uint64_t low = 0;
  std::uint64_t high = 0;
  std::memcpy(&low, instruction.data(), sizeof(low));
  std::memcpy(&high, instruction.data() + kHighWordOffset, sizeof(high));
  const std::uint64_t code = high >> kControlShift;
  const std::uint64_t opcode = low & kOpcodeMask;
  return {
      static_cast<std::uint32_t>(code & kStallMask),
      static_cast<std::uint32_t>((code >> kWriteBarrierShift) & kBarrierMask),
      static_cast<std::uint32_t>((code >> kWaitMaskShift) & kWaitMaskMask),
      std::find(kGlobalLoadOpcodes.begin(), kGlobalLoadOpcodes.end(), opcode) != kGlobalLoadOpcodes.end(),
      opcode == kConstantLoadOpcode,
      opcode == kBarrierOpcode,
      std::find(kMatrixOpcodes.begin(), kMatrixOpcodes.end(), opcode) != kMatrixOpcodes.end(),
      std::find(kMmaPipeFp16FmaOpcodes.begin(), kMmaPipeFp16FmaOpcodes.end(), opcode) != kMmaPipeFp16FmaOpcodes.end(),
      (opcode & kOperationMask) == kIntegerMultiplyOperation ||
          (opcode & kOperationMask) == kWideIntegerMultiplyOperation,
      (opcode & kOperationMask) == kWideIntegerMultiplyOperation,
      kAccessBytes[(high >> kAccessSizeShift) & kAccessSizeMask]};
}

// BRA (a branch, conditional or not) is 0x947 on sm_90, its target (in instructions after the next one) split over
// bits 16-23 (its low 8 bits) and bits 34-63 of the first word (the rest, signed): checked against cuobjdump's
// targets for all 104 branches of two nvcc 13.0 sm_90 programs (ws_correlation, ws_microbench_lsu), 23 of them
// backward.
constexpr std::uint64_t kBranchOpcode = 0x947;
constexpr unsigned kBranchLowShift = 16;
constexpr std::uint64_t kBranchLowMask = 0xff;
constexpr unsigned kBranchHighShift = 34;
constexpr unsigned kBranchHighBits = 30;

// Where a branch at instruction `at` goes, in instructions from the function's start; nullopt for other instructions.
std::optional<std::int64_t> branch_target(std::span<const std::byte> instruction, std::size_t at) {
  std::uint64_t low = 0;
  std::memcpy(&low, instruction.data(), sizeof(low));
  if ((low & kOpcodeMask) != kBranchOpcode) return std::nullopt;
  std::int64_t high = static_cast<std::int64_t>(low >> kBranchHighShift);
  if (high >= (std::int64_t{1} << (kBranchHighBits - 1))) high -= std::int64_t{1} << kBranchHighBits;
  const std::int64_t quads = high * 256 + static_cast<std::int64_t>((low >> kBranchLowShift) & kBranchLowMask);
  const std::int64_t bytes = quads * 4;
  return static_cast<std::int64_t>(at) + 1 + bytes / static_cast<std::int64_t>(kInstructionBytes);
}

// The instructions [first, last] of a loop: a backward branch at `last` to `first` (a branch to itself, the trap
// after the end of a function, is none).
struct Loop {
  std::size_t first = 0;
  std::size_t last = 0;
  std::size_t size() const { return last - first + 1; }
  bool holds(const Loop& other) const { return first <= other.first && other.last <= last && size() > other.size(); }
};

std::vector<Loop> loops_of(std::span<const std::byte> code, std::size_t count) {
  std::vector<Loop> loops;
  for (std::size_t i = 0; i < count; ++i) {
    const auto target = branch_target(code.subspan(i * kInstructionBytes), i);
    if (target && *target >= 0 && static_cast<std::size_t>(*target) < i)
      loops.push_back({static_cast<std::size_t>(*target), i});
  }
  return loops;
}

// Of the innermost loops (holding no other), the one of the most instructions; nullopt without loops.
std::optional<Loop> main_loop(const std::vector<Loop>& loops) {
  std::optional<Loop> best;
  for (const Loop& loop : loops) {
    const bool innermost =
        std::none_of(loops.begin(), loops.end(), [&](const Loop& other) { return loop.holds(other); });
    if (innermost && (!best || loop.size() > best->size())) best = loop;
  }
  return best;
}

// Where a warp stalls for results in flight, in code order: a first waiter is a new stall only if one of the results
// it waits for was issued after the previous stall (or by it). Loads issued back to back and consumed one scoreboard
// after another are one stall (they were all in flight together); a pointer chase stalls at every load.
// Over the waiters [first, last] and the producers from `first` on (a loop's own), or the whole code.
std::uint64_t count_stall_points(const std::vector<std::optional<std::size_t>>& latest_producer_of,
                                 std::size_t first = 0, std::size_t last = SIZE_MAX) {
  std::uint64_t stalls = 0;
  std::optional<std::size_t> previous_stall;
  for (std::size_t w = first; w < latest_producer_of.size() && w <= last; ++w) {
    if (!latest_producer_of[w] || *latest_producer_of[w] < first) continue;
    if (!previous_stall || *latest_producer_of[w] >= *previous_stall) {
      ++stalls;
      previous_stall = w;
    }
  }
  return stalls;
}

// The stall counts of the instructions that ran, weighted by how often each ran (instruction_counts.h).
void add_executions(SassFunctionSummary& summary, const std::vector<Control>& controls,
                    const InstructionExecutions& executions) {
  for (const auto& [pc, warps] : executions) {
    if (pc % kInstructionBytes != 0 || pc / kInstructionBytes >= controls.size()) {
      summary.executions_outside_code = true;
      summary.executed_instructions = summary.executed_stall_cycles = 0;
      return;
    }
    summary.executed_instructions += warps;
    summary.executed_stall_cycles += warps * controls[pc / kInstructionBytes].stall;
  }
}

// One pass from the end of the code: for each scoreboard, the next instruction that waits on it is known when a
// producer is reached, and prefix sums of the stalls give the cycles in between. Linear in the code size, which
// matters for libraries with kernels of tens of thousands of instructions and many loads.
SassFunctionSummary summarize_function(std::string name, std::span<const std::byte> code,
                                       const InstructionExecutions* executions) {
  const std::size_t count = code.size() / kInstructionBytes;
  std::vector<Control> controls(count);
  for (std::size_t i = 0; i < count; ++i) controls[i] = control_of(code.subspan(i * kInstructionBytes));
  std::vector<std::uint64_t> stalls_before(count + 1, 0);  // stall cycles of instructions [0, i)
  for (std::size_t i = 0; i < count; ++i) stalls_before[i + 1] = stalls_before[i] + controls[i].stall;

  SassFunctionSummary summary;
  summary.name = std::move(name);
  std::array<std::optional<std::size_t>, kBarrierCodes> next_waiter{};  // codes 6 and 7 are never waited on
  // For each instruction that is some producer's first waiter: the latest such producer (see count_stall_points).
  std::vector<std::optional<std::size_t>> latest_producer_of(count);
  std::vector<std::optional<std::size_t>> latest_global_load_of(count);  // the same, global loads only
  std::vector<std::optional<std::size_t>> latest_constant_load_of(count);  // the same, constant loads only
  std::vector<bool> covered_global_load(count, false);                   // global loads with a later waiter
  for (std::size_t i = count; i-- > 0;) {
    const Control& c = controls[i];
    if (c.stall > 0) {  // the NOP padding after the end of the function has stall 0
      ++summary.instructions;
      summary.stall_cycles += c.stall;
      if (c.barrier) ++summary.barriers;
      if (c.matrix) ++summary.matrix_instructions;
      if (c.mma_pipe_fp16_fma) ++summary.mma_pipe_fp16_fmas;
      if (c.integer_multiply) ++summary.integer_multiplies;
      if (c.wide_integer_multiply) ++summary.wide_integer_multiplies;
    }
    if (c.write_barrier != kNoBarrier) {
      ++summary.variable_latency;
      // Looked up before this instruction's own wait mask is taken in: the scan starts after the producer.
      if (const auto waiter = next_waiter[c.write_barrier]) {
        summary.cover_cycles += stalls_before[*waiter] - stalls_before[i];
        if (!latest_producer_of[*waiter]) latest_producer_of[*waiter] = i;  // the backward pass meets the latest first
        if (c.global_load) {
          ++summary.global_loads;
          summary.global_cover_cycles += stalls_before[*waiter] - stalls_before[i];
          covered_global_load[i] = true;
          summary.widest_global_load_bytes = std::max(summary.widest_global_load_bytes, std::uint64_t{c.access_bytes});
          if (!latest_global_load_of[*waiter]) latest_global_load_of[*waiter] = i;
        }
        if (c.constant_load) {
          ++summary.constant_loads;
          summary.constant_cover_cycles += stalls_before[*waiter] - stalls_before[i];
          if (!latest_constant_load_of[*waiter]) latest_constant_load_of[*waiter] = i;
        }
      } else
        ++summary.uncovered;
    }
    for (std::uint32_t b = 0; b < kScoreboards; ++b)
      if (((c.wait_mask >> b) & 1u) != 0) next_waiter[b] = i;
  }
  summary.stall_points = count_stall_points(latest_producer_of);
  summary.global_stall_points = count_stall_points(latest_global_load_of);
  summary.constant_stall_points = count_stall_points(latest_constant_load_of);
  if (const auto loop = main_loop(loops_of(code, count))) {
    for (std::size_t i = loop->first; i <= loop->last; ++i) {
      if (controls[i].stall == 0) continue;
      ++summary.main_loop_instructions;
      summary.main_loop_stall_cycles += controls[i].stall;
      if (covered_global_load[i]) ++summary.main_loop_global_loads;
      if (controls[i].integer_multiply) ++summary.main_loop_integer_multiplies;
      if (controls[i].wide_integer_multiply) ++summary.main_loop_wide_integer_multiplies;
    }
    summary.main_loop_global_stall_points = count_stall_points(latest_global_load_of, loop->first, loop->last);
    summary.main_loop_constant_stall_points = count_stall_points(latest_constant_load_of, loop->first, loop->last);
  }
  if (executions) add_executions(summary, controls, *executions);
  return summary;
}

}  // namespace

bool is_elf_image(std::span<const std::byte> image) {
  return image.size() >= SELFMAG && std::memcmp(image.data(), ELFMAG, SELFMAG) == 0;
}

std::optional<std::vector<SassFunctionSummary>> summarize_cubin(std::span<const std::byte> cubin,
                                                                const ExecutionsByFunction* executions) {
  const auto header = read_header(cubin);
  if (!header) return std::nullopt;
  const auto table = read_section_table(cubin, *header);
  if (!table) return std::nullopt;
  std::vector<SassFunctionSummary> functions;
  if (table->sections.empty()) return functions;
  const Elf64_Shdr& names = table->sections[table->names_index];
  const bool volta_or_later = cubin_sm(*header) >= kFirstVoltaSm;
  for (const Elf64_Shdr& section : table->sections) {
    const auto name = section_name(cubin, names, section.sh_name);
    if (!name) return std::nullopt;
    if (!volta_or_later || section.sh_type != SHT_PROGBITS || !name->starts_with(kFunctionSectionPrefix)) continue;
    if (section.sh_size % kInstructionBytes != 0) return std::nullopt;
    const std::string_view function = name->substr(kFunctionSectionPrefix.size());
    if (function.empty()) continue;
    std::string function_name(function);
    const InstructionExecutions* counted = nullptr;
    if (executions)
      if (const auto found = executions->find(function_name); found != executions->end()) counted = &found->second;
    functions.push_back(
        summarize_function(std::move(function_name), cubin.subspan(section.sh_offset, section.sh_size), counted));
  }
  return functions;
}

void set_sass(KernelLaunch& kernel, const SassFunctionSummary& summary) {
  SassSummary* sass = kernel.mutable_sass();
  sass->set_instructions(summary.instructions);
  sass->set_stall_cycles(summary.stall_cycles);
  sass->set_variable_latency(summary.variable_latency);
  sass->set_cover_cycles(summary.cover_cycles);
  sass->set_uncovered(summary.uncovered);
  sass->set_stall_points(summary.stall_points);
  sass->set_global_loads(summary.global_loads);
  sass->set_global_stall_points(summary.global_stall_points);
  sass->set_global_cover_cycles(summary.global_cover_cycles);
  sass->set_widest_global_load_bytes(summary.widest_global_load_bytes);
  sass->set_barriers(summary.barriers);
  sass->set_matrix_instructions(summary.matrix_instructions);
  sass->set_mma_pipe_fp16_fmas(summary.mma_pipe_fp16_fmas);
  sass->set_main_loop_instructions(summary.main_loop_instructions);
  sass->set_main_loop_stall_cycles(summary.main_loop_stall_cycles);
  sass->set_main_loop_global_loads(summary.main_loop_global_loads);
  sass->set_main_loop_global_stall_points(summary.main_loop_global_stall_points);
  sass->set_integer_multiplies(summary.integer_multiplies);
  sass->set_wide_integer_multiplies(summary.wide_integer_multiplies);
  sass->set_main_loop_integer_multiplies(summary.main_loop_integer_multiplies);
  sass->set_main_loop_wide_integer_multiplies(summary.main_loop_wide_integer_multiplies);
  sass->set_constant_loads(summary.constant_loads);
  sass->set_constant_stall_points(summary.constant_stall_points);
  sass->set_constant_cover_cycles(summary.constant_cover_cycles);
  sass->set_main_loop_constant_stall_points(summary.main_loop_constant_stall_points);
  if (summary.executed_instructions > 0) {
    sass->set_executed_instructions(summary.executed_instructions);
    sass->set_executed_stall_cycles(summary.executed_stall_cycles);
  }
}

void SassSummaries::add(std::vector<SassFunctionSummary> functions) {
  const std::lock_guard lock(mutex_);
  for (SassFunctionSummary& function : functions) {
    std::string name = function.name;
    by_name_.insert_or_assign(std::move(name), std::move(function));
  }
}

std::optional<SassFunctionSummary> SassSummaries::find(const std::string& name) const {
  const std::lock_guard lock(mutex_);
  const auto it = by_name_.find(name);
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

std::size_t SassSummaries::size() const {
  const std::lock_guard lock(mutex_);
  return by_name_.size();
}

}  // namespace warpsim::trace

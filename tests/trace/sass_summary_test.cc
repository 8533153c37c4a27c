// The static SASS summary of a cubin's kernels: counts on a real sm_90 cubin (tests/data/sass/), the exact rules on
// small hand-made cubins, and clean refusal (never a crash) of cut, corrupt or foreign buffers.
#include <elf.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "sample_trace.h"
#include "sass_summary.h"

namespace warpsim::trace {
namespace {

using Bytes = std::vector<std::byte>;

// ---- the real cubin -------------------------------------------------------------------------------------------------

constexpr const char* kDependent = "_Z14ffma_dependentPfff";
constexpr const char* kIndependent = "_Z16ffma_independentP6float4ff";
constexpr const char* kLoadUse = "_Z8load_usePKfPfff";

Bytes fixture_cubin() {
  const std::string text = testing::read_file(std::string(WARPSIM_TEST_DATA) + "/sass/kernels_sm90.cubin");
  const auto bytes = std::as_bytes(std::span(text));
  return {bytes.begin(), bytes.end()};
}

const SassFunctionSummary* find_function(const std::vector<SassFunctionSummary>& functions, const std::string& name) {
  const auto it = std::find_if(functions.begin(), functions.end(), [&](const auto& f) { return f.name == name; });
  return it == functions.end() ? nullptr : &*it;
}

double mean_stall(const SassFunctionSummary& f) {
  return static_cast<double>(f.stall_cycles) / static_cast<double>(f.instructions);
}

// How the pinned counts were checked: cuobjdump and nvdisasm are not on the development machine (its CUDA 13.0 bin/
// has nvcc and ptxas but neither), so the same cubin was listed by an independent script that decodes each
// instruction's opcode (low bits of the first word: FFMA 0x?23, FADD 0x?21, IMAD.WIDE 0x?25, LDG 0x981, STG 0x986, S2R
// 0x919, LDC 0xb82, ULDC 0xab9, EXIT 0x94d, BRA 0x947, NOP 0x918; as in Mesa's NAK SM70 encoder and CuAssembler's
// tables) and control code; the counts below were summed from that listing by hand and by the script's own plain
// (quadratic) implementation of the rules:
//   ffma_dependent: LDC, LDC, S2R, ULDC, LDC (stalls 8 1 1 6 1), 32 FFMAs at stall 4 (but one at 1 followed by an
//     independent IMAD.WIDE at 4, and the last at 5), STG 1, EXIT 5, then a BRA-to-self and NOPs at stall 0: 40
//     counted, 153 cycles. Producers LDC->SB0, S2R->SB1, LDC->SB1, first waited on 9, 17 and 10 cycles later (36).
//   ffma_independent: the same prologue, 8 FADDs, 64 FFMAs at stall 1 (the last at 2), SHF, IMAD.WIDE, two stores,
//     EXIT: 82 counted, 105 cycles; its 3 producers are the prologue's.
//   load_use: 0x60 LDG sets SB2; FADD at 0x110 is the first to wait on SB2, 10 instructions and 34 cycles later
//     (LDG 1, FFMA 4, FFMA 2, LDC 2, 5 x FFMA 4, FFMA 1, IMAD.WIDE 4). With S2R (16), two LDCs (9, 7) and a late LDC
//     (23): 5 producers, 89 cycles of cover, none without a waiter.
// Where the full toolkit is, `cuobjdump -sass tests/data/sass/kernels_sm90.cubin` shows the same instruction order.
TEST(SassSummary, FixtureCubinHasItsThreeKernelsByMangledName) {
  const auto functions = summarize_cubin(fixture_cubin());
  ASSERT_TRUE(functions.has_value());
  EXPECT_EQ(functions->size(), 3u);
  EXPECT_NE(find_function(*functions, kDependent), nullptr);
  EXPECT_NE(find_function(*functions, kIndependent), nullptr);
  EXPECT_NE(find_function(*functions, kLoadUse), nullptr);
}

TEST(SassSummary, DependentFfmaChainIsSpacedByTheFmaLatency) {
  const auto functions = summarize_cubin(fixture_cubin());
  ASSERT_TRUE(functions.has_value());
  const SassFunctionSummary* f = find_function(*functions, kDependent);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->instructions, 40u);
  EXPECT_EQ(f->stall_cycles, 153u);
  EXPECT_EQ(f->variable_latency, 3u);
  EXPECT_EQ(f->cover_cycles, 36u);
  EXPECT_EQ(f->uncovered, 0u);
  EXPECT_GE(mean_stall(*f), 3.5);
}

TEST(SassSummary, IndependentFfmasIssueEveryCycle) {
  const auto functions = summarize_cubin(fixture_cubin());
  ASSERT_TRUE(functions.has_value());
  const SassFunctionSummary* f = find_function(*functions, kIndependent);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->instructions, 82u);
  EXPECT_EQ(f->stall_cycles, 105u);
  EXPECT_EQ(f->variable_latency, 3u);
  EXPECT_EQ(f->cover_cycles, 143u);
  EXPECT_EQ(f->uncovered, 0u);
  EXPECT_LT(mean_stall(*f), 1.5) << "1 per FFMA; the prologue's constant loads and the stores add the rest";
}

TEST(SassSummary, LoadIsCoveredByTheWorkBeforeItsFirstUse) {
  const auto functions = summarize_cubin(fixture_cubin());
  ASSERT_TRUE(functions.has_value());
  const SassFunctionSummary* f = find_function(*functions, kLoadUse);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->instructions, 20u);
  EXPECT_EQ(f->stall_cycles, 67u);
  EXPECT_EQ(f->variable_latency, 5u);  // S2R, 3 x LDC, LDG
  EXPECT_EQ(f->cover_cycles, 89u);     // 16 + 9 + 7 + 34 (the LDG) + 23
  EXPECT_EQ(f->uncovered, 0u);
  EXPECT_EQ(f->global_loads, 1u) << "the LDG, decoded from a real sm_90 cubin; S2R and LDC are not global loads";
  EXPECT_EQ(f->widest_global_load_bytes, 4u) << "a float";
  EXPECT_EQ(f->global_stall_points, 1u);
}

// ---- hand-made cubins -----------------------------------------------------------------------------------------------

constexpr std::uint32_t kNone = 7;
constexpr std::uint32_t kSm90FlagsV2 = 90u << 8;  // ELF ABI version 8: the SM number in bits 8-15
constexpr unsigned char kAbiV2 = 8;
constexpr unsigned char kAbiV1 = 7;

// The control code's place in the instruction's high word and its fields (see sass_summary.cc).
constexpr unsigned kControlShift = 41;
constexpr unsigned kWriteBarrierShift = 5;
constexpr unsigned kReadBarrierShift = 8;
constexpr unsigned kWaitMaskShift = 11;
constexpr std::uint64_t kNop = 0x7918;  // the first word of a NOP; any opcode but a load's would do
constexpr std::uint64_t kLdg = 0x981;   // LDG's opcode (sm_80 and later): a global load
constexpr std::uint64_t kLds = 0x984;   // LDS's: a shared-memory load
constexpr std::uint64_t kBar = 0xb1d;   // BAR.SYNC's (__syncthreads), sm_75 to sm_90
constexpr std::uint64_t kLdc = 0xb82;   // LDC's: a constant-bank load (sm_90)
constexpr std::uint64_t kUldc = 0xab9;  // ULDC's: the uniform datapath's constant load, no scoreboard

// A control code: stall, the scoreboard written (7: none), the scoreboards waited on; no read barrier, no yield.
std::uint64_t control(std::uint32_t stall, std::uint32_t write_barrier = kNone, std::uint32_t wait_mask = 0) {
  return stall | (std::uint64_t{write_barrier} << kWriteBarrierShift) | (std::uint64_t{kNone} << kReadBarrierShift) |
         (std::uint64_t{wait_mask} << kWaitMaskShift);
}

std::uint64_t padding() { return control(0); }

struct Section {
  std::string name;
  std::uint32_t type = SHT_PROGBITS;
  Bytes bytes;
};

// Access-size codes of a load, bits 9-11 of the high word.
constexpr std::uint64_t kSize32 = 4;
constexpr std::uint64_t kSize64 = 5;
constexpr std::uint64_t kSize128 = 6;
constexpr unsigned kAccessSizeShift = 9;

struct Instruction {
  std::uint64_t opcode = kNop;  // the first word: only its opcode bits are read
  std::uint64_t control = 0;
  std::uint64_t size = kSize32;  // a load's access size code
};

Section function_with_opcodes(const std::string& name, const std::vector<Instruction>& instructions) {
  Section s{".text." + name, SHT_PROGBITS, {}};
  for (const Instruction& instruction : instructions) {
    const std::array<std::uint64_t, 2> words = {
        instruction.opcode, (instruction.control << kControlShift) | (instruction.size << kAccessSizeShift)};
    const auto bytes = std::as_bytes(std::span(words));
    s.bytes.insert(s.bytes.end(), bytes.begin(), bytes.end());
  }
  return s;
}

Section function(const std::string& name, const std::vector<std::uint64_t>& controls) {
  std::vector<Instruction> instructions;
  for (std::uint64_t c : controls) instructions.push_back({kNop, c});
  return function_with_opcodes(name, instructions);
}

struct CubinShape {
  std::uint16_t machine = EM_CUDA;
  unsigned char abi_version = kAbiV2;
  std::uint32_t flags = kSm90FlagsV2;
  bool extended_numbering = false;  // section count and name-table index in section 0
};

template <typename T>
void put(Bytes& out, std::size_t offset, const T& value) {
  if (out.size() < offset + sizeof(T)) out.resize(offset + sizeof(T));
  std::memcpy(out.data() + offset, &value, sizeof(T));
}

constexpr std::size_t kSectionAlignment = 16;

// ELF header, the section contents (section-name table first), then the section headers.
Bytes make_cubin(std::vector<Section> sections, const CubinShape& shape = {}) {
  Section names{".shstrtab", SHT_STRTAB, {std::byte{0}}};
  std::vector<std::uint32_t> name_offsets;
  sections.insert(sections.begin(), names);
  for (const Section& s : sections) {
    name_offsets.push_back(static_cast<std::uint32_t>(sections[0].bytes.size()));
    for (char ch : s.name) sections[0].bytes.push_back(static_cast<std::byte>(ch));
    sections[0].bytes.push_back(std::byte{0});
  }
  Bytes out(sizeof(Elf64_Ehdr));
  std::vector<Elf64_Shdr> headers(1 + sections.size(), Elf64_Shdr{});
  for (std::size_t i = 0; i < sections.size(); ++i) {
    out.resize((out.size() + kSectionAlignment - 1) / kSectionAlignment * kSectionAlignment);
    Elf64_Shdr& h = headers[i + 1];
    h.sh_name = name_offsets[i];
    h.sh_type = sections[i].type;
    h.sh_offset = out.size();
    h.sh_size = sections[i].bytes.size();
    if (sections[i].type != SHT_NOBITS) out.insert(out.end(), sections[i].bytes.begin(), sections[i].bytes.end());
  }
  Elf64_Ehdr e{};
  std::memcpy(e.e_ident, ELFMAG, SELFMAG);
  e.e_ident[EI_CLASS] = ELFCLASS64;
  e.e_ident[EI_DATA] = ELFDATA2LSB;
  e.e_ident[EI_VERSION] = EV_CURRENT;
  e.e_ident[EI_ABIVERSION] = shape.abi_version;
  e.e_type = ET_EXEC;
  e.e_machine = shape.machine;
  e.e_flags = shape.flags;
  e.e_ehsize = sizeof(Elf64_Ehdr);
  e.e_shentsize = sizeof(Elf64_Shdr);
  e.e_shoff = out.size();
  if (shape.extended_numbering) {
    headers[0].sh_size = headers.size();
    headers[0].sh_link = 1;
    e.e_shnum = 0;
    e.e_shstrndx = SHN_XINDEX;
  } else {
    e.e_shnum = static_cast<std::uint16_t>(headers.size());
    e.e_shstrndx = 1;
  }
  for (const Elf64_Shdr& h : headers) put(out, out.size(), h);
  put(out, 0, e);
  return out;
}

SassFunctionSummary only_function(const Bytes& cubin) {
  const auto functions = summarize_cubin(cubin);
  EXPECT_TRUE(functions.has_value());
  EXPECT_EQ(functions ? functions->size() : 0u, 1u);
  return functions && functions->size() == 1 ? functions->front() : SassFunctionSummary{};
}

TEST(SassSummary, CoverRunsFromTheProducerToTheFirstWaiterOnItsScoreboard) {
  const Bytes cubin = make_cubin({function("k", {
                                                    control(2, 2),                // producer: sets scoreboard 2
                                                    control(4, kNone, 0b000001),  // waits on 0 only: not a consumer
                                                    control(3),
                                                    control(1, kNone, 0b000100),  // first waiter on 2
                                                    control(5, kNone, 0b000100),  // a later one: not counted
                                                    padding(),
                                                    padding(),
                                                    padding(),
                                                })});
  const SassFunctionSummary f = only_function(cubin);
  EXPECT_EQ(f.name, "k");
  EXPECT_EQ(f.instructions, 5u) << "the padding has stall 0";
  EXPECT_EQ(f.stall_cycles, 15u);
  EXPECT_EQ(f.variable_latency, 1u);
  EXPECT_EQ(f.cover_cycles, 2u + 4u + 3u) << "its own stall and those of the instructions before the waiter";
  EXPECT_EQ(f.uncovered, 0u);
}

// Each counted instruction's stall count as often as it ran: a loop body (stalls 1 and 3) run 10 times, the
// instructions around it (2 and 5) once: 12 + 10 x 4 = 52 cycles over 22 executions.
TEST(SassSummary, ExecutedFieldsWeighTheStallCountsByTheCounts) {
  const Bytes cubin = make_cubin({function("k", {control(2), control(1), control(3), control(5), padding()})});
  const ExecutionsByFunction counts{{"k", {{0x00, 1}, {0x10, 10}, {0x20, 10}, {0x30, 1}}}, {"other", {{0x00, 7}}}};
  const auto functions = summarize_cubin(cubin, &counts);
  ASSERT_TRUE(functions.has_value());
  ASSERT_EQ(functions->size(), 1u);
  const SassFunctionSummary& f = functions->front();
  EXPECT_EQ(f.executed_instructions, 22u);
  EXPECT_EQ(f.executed_stall_cycles, 2u + 10u * 1u + 10u * 3u + 5u);
  EXPECT_FALSE(f.executions_outside_code);
  EXPECT_EQ(f.stall_cycles, 11u) << "the static counts are unchanged";
  EXPECT_EQ(only_function(cubin).executed_instructions, 0u) << "no counts, no executed fields";
}

TEST(SassSummary, CountsOutsideTheCodeAreOtherCodesAndNotUsed) {
  const Bytes cubin = make_cubin({function("k", {control(2), control(1), padding()})});
  for (const std::uint32_t pc : {0x30u, 0x08u}) {  // past the end; not at an instruction
    const ExecutionsByFunction counts{{"k", {{0x00, 4}, {pc, 4}}}};
    const auto functions = summarize_cubin(cubin, &counts);
    ASSERT_TRUE(functions.has_value());
    EXPECT_TRUE(functions->front().executions_outside_code) << pc;
    EXPECT_EQ(functions->front().executed_instructions, 0u) << pc;
    EXPECT_EQ(functions->front().executed_stall_cycles, 0u) << pc;
  }
}

TEST(SassSummary, ProducerWaitingOnItsOwnScoreboardIsNotItsOwnConsumer) {
  // Two loads into scoreboard 0 in a row, the second waiting for the first (a WAR on the scoreboard), one use.
  const Bytes cubin =
      make_cubin({function("k", {control(1, 0), control(2, 0, 0b1), control(4), control(1, kNone, 0b1), padding()})});
  const SassFunctionSummary f = only_function(cubin);
  EXPECT_EQ(f.variable_latency, 2u);
  EXPECT_EQ(f.cover_cycles, 1u + (2u + 4u)) << "the first is waited on by the second; the second by the use";
  EXPECT_EQ(f.uncovered, 0u);
}

TEST(SassSummary, LoadUsedOnlyAtTheTopOfTheNextIterationIsUncovered) {
  // Loop: the top waits on the load issued at the bottom of the previous iteration; nothing waits on it later.
  const Bytes cubin =
      make_cubin({function("loop", {control(2, kNone, 0b10), control(4), control(1, 1), control(5), padding()})});
  const SassFunctionSummary f = only_function(cubin);
  EXPECT_EQ(f.instructions, 4u);
  EXPECT_EQ(f.variable_latency, 1u);
  EXPECT_EQ(f.uncovered, 1u);
  EXPECT_EQ(f.cover_cycles, 0u);
}

TEST(SassSummary, LoadsInFlightTogetherAreOneStall) {
  // Four loads on scoreboards 0 and 1, consumed one scoreboard after the other: one stall (all four were in flight
  // when the first wait began); then two more loads and a wait for them: a second stall.
  const Bytes batch = make_cubin(
      {function("batch", {control(1, 0), control(1, 1), control(1, 0), control(1, 1), control(1, kNone, 0b01),
                          control(1, kNone, 0b10), control(1, 0), control(1, 1), control(1, kNone, 0b11), padding()})});
  const SassFunctionSummary batched = only_function(batch);
  EXPECT_EQ(batched.variable_latency, 6u);
  EXPECT_EQ(batched.stall_points, 2u);
  // A chase: every load's address is the previous load's result, so every load waits for one issued after the
  // previous stall.
  const Bytes chase = make_cubin(
      {function("chase", {control(1, 0), control(1, 0, 0b1), control(1, 0, 0b1), control(1, kNone, 0b1), padding()})});
  const SassFunctionSummary chased = only_function(chase);
  EXPECT_EQ(chased.variable_latency, 3u);
  EXPECT_EQ(chased.stall_points, 3u);
}

// A branch's first word: BRA's opcode and its target, `instructions` after the instruction that follows it, as
// quads (4 bytes): the low 8 bits in bits 16-23, the rest from bit 34 (two's complement; sass_summary.cc).
std::uint64_t branch(std::int64_t instructions) {
  const std::int64_t quads = instructions * 4;
  const std::uint64_t low = static_cast<std::uint64_t>(quads) & 0xff;
  const std::uint64_t high = static_cast<std::uint64_t>(quads >> 8) & ((std::uint64_t{1} << 30) - 1);
  return 0x947 | (low << 16) | (high << 34);
}

TEST(SassSummary, MainLoopIsTheLargestInnermostLoop) {
  // A loop of four global loads waited on together (one stall), then a remainder loop of one load and its wait,
  // then the trap after the end (a branch to itself).
  const Bytes cubin = make_cubin({function_with_opcodes("k", {{kNop, control(2)},
                                                              {kLdg, control(1, 0)},  // 1: the main loop's top
                                                              {kLdg, control(1, 1)},
                                                              {kLdg, control(1, 0)},
                                                              {kLdg, control(1, 1)},
                                                              {kNop, control(4, kNone, 0b11)},
                                                              {branch(-6), control(5)},  // 6: back to 1
                                                              {kLdg, control(1, 0)},     // 7: the remainder loop's top
                                                              {kNop, control(4, kNone, 0b01)},
                                                              {branch(-3), control(5)},  // 9: back to 7
                                                              {branch(-1), control(5)},  // 10: to itself
                                                              {kNop, padding()}})});
  const SassFunctionSummary f = only_function(cubin);
  EXPECT_EQ(f.global_loads, 5u);
  EXPECT_EQ(f.global_stall_points, 2u) << "over the code: 2.5 loads per stall";
  EXPECT_EQ(f.main_loop_instructions, 6u);
  EXPECT_EQ(f.main_loop_stall_cycles, 13u);  // 1 + 1 + 1 + 1 + 4 + 5
  EXPECT_EQ(f.main_loop_global_loads, 4u);
  EXPECT_EQ(f.main_loop_global_stall_points, 1u) << "the main loop keeps its four in flight";
}

TEST(SassSummary, InnermostLoopWinsOverTheLoopHoldingIt) {
  const Bytes cubin = make_cubin({function_with_opcodes("k", {{kNop, control(1)},     // 0: outer top
                                                              {kLdg, control(1, 0)},  // 1: inner top
                                                              {kNop, control(1, kNone, 0b1)},
                                                              {branch(-3), control(1)},  // 3: back to 1
                                                              {kNop, control(1)},
                                                              {kNop, control(1)},
                                                              {branch(-7), control(1)},  // 6: back to 0
                                                              {kNop, padding()}})});
  const SassFunctionSummary f = only_function(cubin);
  EXPECT_EQ(f.main_loop_instructions, 3u);
  EXPECT_EQ(f.main_loop_global_loads, 1u);
}

TEST(SassSummary, CodeWithoutABackwardBranchHasNoMainLoop) {
  const Bytes cubin = make_cubin({function_with_opcodes("k", {{kLdg, control(1, 0)},
                                                              {branch(1), control(1)},
                                                              {kNop, control(1, kNone, 0b1)},
                                                              {kNop, control(1)},
                                                              {branch(-1), control(1)},
                                                              {kNop, padding()}})});
  const SassFunctionSummary f = only_function(cubin);
  EXPECT_EQ(f.global_loads, 1u);
  EXPECT_EQ(f.main_loop_instructions, 0u) << "a forward branch and a branch to itself make no loop";
  EXPECT_EQ(f.main_loop_global_loads, 0u);
}

TEST(SassSummary, GlobalLoadsAreCountedApartFromSharedOnes) {
  // Two global loads then a shared load, all waited for at one instruction (one stall for each count); then a
  // global load used at once, twice over (a chase: one stall each).
  const Bytes cubin = make_cubin({function_with_opcodes("k", {{kLdg, control(1, 0)},
                                                              {kLdg, control(1, 1)},
                                                              {kLds, control(1, 2)},
                                                              {kNop, control(1, kNone, 0b111)},
                                                              {kLdg, control(1, 0)},
                                                              {kLdg, control(1, 0, 0b1)},
                                                              {kNop, control(1, kNone, 0b1)},
                                                              {kNop, padding()}})});
  const SassFunctionSummary f = only_function(cubin);
  EXPECT_EQ(f.variable_latency, 5u);
  EXPECT_EQ(f.global_loads, 4u) << "the shared load is not one";
  EXPECT_EQ(f.global_stall_points, 3u);
  EXPECT_EQ(f.stall_points, 3u);
  EXPECT_EQ(f.widest_global_load_bytes, 4u) << "each a 32-bit load (size code 4)";
  // Covers: the first LDG 1 + 1 + 1 cycles to the wait, the second 1 + 1, the LDS 1; the chase's loads 1 each.
  EXPECT_EQ(f.cover_cycles, 3u + 2u + 1u + 1u + 1u);
  EXPECT_EQ(f.global_cover_cycles, 3u + 2u + 1u + 1u) << "the shared load's cover is not the global loads'";
}

// Constant loads (LDC) with a scoreboard are producers of their own: two kernel arguments loaded together and used
// at one instruction (one stall), an LDC without a scoreboard and a ULDC (neither waited on), then an indexed
// __constant__ read inside a loop, waited on at once (a stall an iteration). An LDG's cover is not theirs.
TEST(SassSummary, ConstantLoadsAreCountedWithTheirStallsAndCover) {
  const Bytes cubin = make_cubin({function_with_opcodes("k", {{kLdc, control(1)},     // 0: no scoreboard
                                                              {kUldc, control(1)},    // 1: the uniform path's
                                                              {kLdc, control(1, 0)},  // 2
                                                              {kLdc, control(2, 1)},  // 3
                                                              {kNop, control(1, kNone, 0b11)},
                                                              {kLdg, control(1, 2)},  // 5: the loop's top
                                                              {kLdc, control(3, 0)},  // 6
                                                              {kNop, control(1, kNone, 0b1)},
                                                              {kNop, control(1, kNone, 0b100)},
                                                              {branch(-5), control(5)},  // 9: back to 5
                                                              {kNop, padding()}})});
  const SassFunctionSummary f = only_function(cubin);
  EXPECT_EQ(f.constant_loads, 3u) << "neither the LDC without a scoreboard nor the ULDC";
  EXPECT_EQ(f.constant_stall_points, 2u) << "the two arguments waited on together, then the loop's";
  EXPECT_EQ(f.constant_cover_cycles, 3u + 2u + 3u);
  EXPECT_EQ(f.main_loop_constant_stall_points, 1u);
  EXPECT_EQ(f.global_loads, 1u);
  EXPECT_EQ(f.global_cover_cycles, 1u + 3u + 1u);
}

TEST(SassSummary, GlobalLoadBytesFollowTheAccessSize) {
  const Bytes cubin = make_cubin({function_with_opcodes("k", {{kLdg, control(1, 0), kSize128},
                                                              {kLdg, control(1, 1), kSize64},
                                                              {kNop, control(1, kNone, 0b11)},
                                                              {kNop, padding()}})});
  const SassFunctionSummary f = only_function(cubin);
  EXPECT_EQ(f.global_loads, 2u);
  EXPECT_EQ(f.widest_global_load_bytes, 16u);
}

// Barriers are counted where they are code, not in the NOP padding after the end (stall 0).
TEST(SassSummary, BarriersAreCounted) {
  const Bytes cubin = make_cubin({function_with_opcodes(
      "k", {{kBar, control(1)}, {kNop, control(2)}, {kBar, control(1)}, {kLds, control(1)}, {kBar, padding()}})});
  const SassFunctionSummary f = only_function(cubin);
  EXPECT_EQ(f.instructions, 4u);
  EXPECT_EQ(f.barriers, 2u);
}

TEST(SassSummary, OnlyTextSectionsWithCodeAreFunctions) {
  Section shared{".text.nobits", SHT_NOBITS, Bytes(32)};
  Section data{".nv.constant0.k", SHT_PROGBITS, Bytes(48, std::byte{0xff})};
  Section bare = function("", {control(1)});  // ".text." with no name
  const auto functions = summarize_cubin(
      make_cubin({data, function("a", {control(1)}), shared, bare, function("b", {control(2), control(3)})}));
  ASSERT_TRUE(functions.has_value());
  ASSERT_EQ(functions->size(), 2u);
  EXPECT_EQ((*functions)[0].name, "a");
  EXPECT_EQ((*functions)[1].name, "b");
  EXPECT_EQ((*functions)[1].stall_cycles, 5u);
}

TEST(SassSummary, ArchitectureComesFromTheFlagsOfEitherElfAbi) {
  const std::vector<Section> code = {function("k", {control(4), control(4)})};
  CubinShape turing_v1{EM_CUDA, kAbiV1, 75, false};  // ABI version 7: the SM number in the low byte
  EXPECT_EQ(only_function(make_cubin(code, turing_v1)).stall_cycles, 8u);
  CubinShape pascal_v1{EM_CUDA, kAbiV1, 61, false};
  const auto pascal = summarize_cubin(make_cubin(code, pascal_v1));
  ASSERT_TRUE(pascal.has_value());
  EXPECT_TRUE(pascal->empty()) << "64-bit instructions with separate control words: not read";
  CubinShape blackwell{EM_CUDA, kAbiV2, 100u << 8, false};
  EXPECT_EQ(only_function(make_cubin(code, blackwell)).stall_cycles, 8u);
  CubinShape host{EM_X86_64, 0, 0, false};
  const auto x86 = summarize_cubin(make_cubin(code, host));
  ASSERT_TRUE(x86.has_value());
  EXPECT_TRUE(x86->empty());
}

TEST(SassSummary, ExtendedSectionNumberingIsRead) {
  CubinShape shape;
  shape.extended_numbering = true;
  EXPECT_EQ(only_function(make_cubin({function("k", {control(3)})}, shape)).stall_cycles, 3u);
}

// ---- refusing bad input ---------------------------------------------------------------------------------------------

Elf64_Ehdr header_of(const Bytes& cubin) {
  Elf64_Ehdr e;
  std::memcpy(&e, cubin.data(), sizeof(e));
  return e;
}

std::size_t section_header_offset(const Bytes& cubin, std::size_t index) {
  return header_of(cubin).e_shoff + index * sizeof(Elf64_Shdr);
}

Elf64_Shdr section_header(const Bytes& cubin, std::size_t index) {
  Elf64_Shdr h;
  std::memcpy(&h, cubin.data() + section_header_offset(cubin, index), sizeof(h));
  return h;
}

// Index of the fixture's section called `name` (read from the good file, so plain lookups suffice here).
std::size_t section_index(const Bytes& cubin, const std::string& name) {
  const Elf64_Ehdr e = header_of(cubin);
  const Elf64_Shdr names = section_header(cubin, e.e_shstrndx);
  for (std::size_t i = 0; i < e.e_shnum; ++i) {
    const char* text = reinterpret_cast<const char*>(cubin.data() + names.sh_offset + section_header(cubin, i).sh_name);
    if (name == text) return i;
  }
  ADD_FAILURE() << "no section " << name;
  return 0;
}

template <typename Field>
Bytes with_section_field(Bytes cubin, std::size_t index, Field Elf64_Shdr::*field, Field value) {
  Elf64_Shdr h = section_header(cubin, index);
  h.*field = value;
  put(cubin, section_header_offset(cubin, index), h);
  return cubin;
}

template <typename Field>
Bytes with_header_field(Bytes cubin, Field Elf64_Ehdr::*field, Field value) {
  Elf64_Ehdr e = header_of(cubin);
  e.*field = value;
  put(cubin, 0, e);
  return cubin;
}

TEST(SassSummary, EveryTruncationIsRefusedUntilTheSectionTableIsWhole) {
  const Bytes cubin = fixture_cubin();
  const auto full = summarize_cubin(cubin);
  ASSERT_TRUE(full.has_value());
  // The program headers come last (readelf -l) and are not read: the file is whole for us once the section table is.
  const Elf64_Ehdr e = header_of(cubin);
  const std::size_t needed = e.e_shoff + std::size_t{e.e_shnum} * sizeof(Elf64_Shdr);
  ASSERT_LT(needed, cubin.size());
  for (std::size_t n = 0; n <= cubin.size(); ++n) {
    // A copy of exactly n bytes, so that reading past it is out of the allocation (what a sanitizer would flag).
    const Bytes prefix(cubin.begin(), cubin.begin() + static_cast<std::ptrdiff_t>(n));
    const auto result = summarize_cubin(prefix);
    if (n < needed) {
      EXPECT_FALSE(result.has_value()) << n << " bytes";
    } else {
      ASSERT_TRUE(result.has_value()) << n << " bytes";
      EXPECT_EQ(result->size(), full->size());
    }
  }
}

TEST(SassSummary, EmptyAndForeignBuffersAreRefused) {
  EXPECT_FALSE(summarize_cubin({}).has_value());
  EXPECT_FALSE(is_elf_image({}));
  const std::string ptx = ".version 9.0\n.target sm_90\n.address_size 64\n";
  EXPECT_FALSE(summarize_cubin(std::as_bytes(std::span(ptx))).has_value());
  EXPECT_FALSE(is_elf_image(std::as_bytes(std::span(ptx))));
  EXPECT_TRUE(is_elf_image(fixture_cubin()));
  Bytes elf32 = fixture_cubin();
  elf32[EI_CLASS] = std::byte{ELFCLASS32};
  EXPECT_FALSE(summarize_cubin(elf32).has_value());
  Bytes big_endian = fixture_cubin();
  big_endian[EI_DATA] = std::byte{ELFDATA2MSB};
  EXPECT_FALSE(summarize_cubin(big_endian).has_value());
}

TEST(SassSummary, RandomBytesAreRefused) {
  std::mt19937_64 random(20261122);
  for (std::size_t size : {1u, 7u, 64u, 100u, 4096u, 9280u}) {
    Bytes noise(size);
    for (std::byte& b : noise) b = static_cast<std::byte>(random() & 0xff);
    EXPECT_FALSE(summarize_cubin(noise).has_value()) << size;
    // The same behind a valid 64-bit little-endian identification, so that the header fields are read.
    if (size < EI_NIDENT) continue;
    const std::array<unsigned char, 6> ident = {0x7f, 'E', 'L', 'F', ELFCLASS64, ELFDATA2LSB};
    std::memcpy(noise.data(), ident.data(), ident.size());
    EXPECT_FALSE(summarize_cubin(noise).has_value()) << size << " after an ELF identification";
  }
}

TEST(SassSummary, SectionsOrTablesOutsideTheBufferAreRefused) {
  const Bytes cubin = fixture_cubin();
  const std::uint64_t size = cubin.size();
  const std::size_t text = section_index(cubin, std::string(".text.") + kDependent);
  const std::size_t constants = section_index(cubin, std::string(".nv.constant0.") + kDependent);
  const std::size_t names = header_of(cubin).e_shstrndx;
  ASSERT_TRUE(summarize_cubin(cubin).has_value());

  EXPECT_FALSE(summarize_cubin(with_section_field(cubin, text, &Elf64_Shdr::sh_offset, size + 16)).has_value());
  EXPECT_FALSE(summarize_cubin(with_section_field(cubin, text, &Elf64_Shdr::sh_offset, size - 16)).has_value())
      << "starts inside, ends outside";
  EXPECT_FALSE(
      summarize_cubin(with_section_field(cubin, text, &Elf64_Shdr::sh_size, ~std::uint64_t{0} - 15)).has_value())
      << "offset + size wraps around";
  EXPECT_FALSE(summarize_cubin(with_section_field(cubin, text, &Elf64_Shdr::sh_size, std::uint64_t{100})).has_value())
      << "not whole 16-byte instructions";
  EXPECT_FALSE(summarize_cubin(with_section_field(cubin, constants, &Elf64_Shdr::sh_offset, size)).has_value())
      << "any section with contents, not only code";
  EXPECT_FALSE(summarize_cubin(with_section_field(cubin, names, &Elf64_Shdr::sh_offset, size - 1)).has_value());
  EXPECT_FALSE(
      summarize_cubin(with_section_field(cubin, text, &Elf64_Shdr::sh_name, std::uint32_t{1u << 30})).has_value())
      << "name past the name table";
  const Elf64_Shdr name_table = section_header(cubin, names);
  EXPECT_FALSE(
      summarize_cubin(with_section_field(cubin, names, &Elf64_Shdr::sh_size, name_table.sh_size - 1)).has_value())
      << "the last name loses its terminator";

  EXPECT_FALSE(summarize_cubin(with_header_field(cubin, &Elf64_Ehdr::e_shoff, size)).has_value());
  EXPECT_FALSE(summarize_cubin(with_header_field(cubin, &Elf64_Ehdr::e_shoff, ~std::uint64_t{0} - 8)).has_value());
  EXPECT_FALSE(summarize_cubin(with_header_field(cubin, &Elf64_Ehdr::e_shnum, std::uint16_t{0xfeff})).has_value());
  EXPECT_FALSE(summarize_cubin(with_header_field(cubin, &Elf64_Ehdr::e_shstrndx, std::uint16_t{200})).has_value());
  EXPECT_FALSE(summarize_cubin(with_header_field(cubin, &Elf64_Ehdr::e_shentsize, std::uint16_t{32})).has_value());
  // Extended numbering announced, with section 0 claiming far more sections than the file holds.
  Bytes extended = with_header_field(cubin, &Elf64_Ehdr::e_shnum, std::uint16_t{0});
  extended = with_section_field(extended, 0, &Elf64_Shdr::sh_size, std::uint64_t{1} << 40);
  EXPECT_FALSE(summarize_cubin(extended).has_value());
}

// ---- on the kernel record, and the store the tracer keeps ---------------------------------------------------------

// The HMMA sub-pipe's instructions by kind (sm_90 encodings, cuobjdump): HMMA and DMMA are matrix instructions,
// HFMA2.MMA (register and immediate forms) FP16 FMAs on the MMA pipe; plain HFMA2 (the FMA pipe) is neither.
TEST(SassSummary, MmaPipeInstructionsAreCountedByKind) {
  const Bytes cubin = make_cubin({function_with_opcodes("k", {{0x23c, control(1)},
                                                              {0x23f, control(1)},
                                                              {0x23c, control(2)},
                                                              {0x235, control(1)},
                                                              {0x435, control(1)},
                                                              {0x231, control(1)},
                                                              {0x23c, padding()}})});
  const SassFunctionSummary f = only_function(cubin);
  EXPECT_EQ(f.matrix_instructions, 3u);
  EXPECT_EQ(f.mma_pipe_fp16_fmas, 2u);
}

// Integer multiply-adds by their operation (sm_90 encodings, cuobjdump): IMAD in its register, immediate and
// constant forms and IMAD.MOV (0x224, 0x424, 0x824), IMAD.WIDE (0x225, 0x825); FFMA (0x223) and IADD3 (0x210) are
// neither. Those inside the main loop are counted again there.
TEST(SassSummary, IntegerMultipliesAreCountedWithTheirWideForm) {
  const Bytes cubin = make_cubin({function_with_opcodes("k", {{0x224, control(1)},
                                                              {0x825, control(1)},  // 1: loop top
                                                              {0x424, control(1)},
                                                              {0x225, control(1)},
                                                              {0x223, control(1)},
                                                              {branch(-5), control(1)},  // 5: back to 1
                                                              {0x824, control(1)},
                                                              {0x210, control(1)},
                                                              {0x225, padding()}})});
  const SassFunctionSummary f = only_function(cubin);
  EXPECT_EQ(f.integer_multiplies, 5u);
  EXPECT_EQ(f.wide_integer_multiplies, 2u);
  EXPECT_EQ(f.main_loop_integer_multiplies, 3u);
  EXPECT_EQ(f.main_loop_wide_integer_multiplies, 2u);
}

TEST(SassSummary, SetSassPutsEveryCountOnTheKernel) {
  KernelLaunch kernel;
  EXPECT_FALSE(kernel.has_sass());
  set_sass(kernel, {"k", 40, 153, 3, 36, 1, 2});
  ASSERT_TRUE(kernel.has_sass());
  EXPECT_EQ(kernel.sass().instructions(), 40u);
  EXPECT_EQ(kernel.sass().stall_cycles(), 153u);
  EXPECT_EQ(kernel.sass().variable_latency(), 3u);
  EXPECT_EQ(kernel.sass().cover_cycles(), 36u);
  EXPECT_EQ(kernel.sass().uncovered(), 1u);
  EXPECT_TRUE(kernel.sass().has_uncovered());
  EXPECT_EQ(kernel.sass().stall_points(), 2u);
  EXPECT_FALSE(kernel.sass().has_global_loads() && kernel.sass().global_loads() != 0);
  SassFunctionSummary looped{"k", 40, 153, 3, 36, 1, 2};
  looped.main_loop_instructions = 12;
  looped.main_loop_stall_cycles = 30;
  looped.main_loop_global_loads = 4;
  looped.main_loop_global_stall_points = 1;
  looped.global_cover_cycles = 20;
  looped.matrix_instructions = 8;
  looped.mma_pipe_fp16_fmas = 3;
  looped.integer_multiplies = 9;
  looped.wide_integer_multiplies = 5;
  looped.main_loop_integer_multiplies = 6;
  looped.main_loop_wide_integer_multiplies = 4;
  looped.constant_loads = 7;
  looped.constant_stall_points = 5;
  looped.constant_cover_cycles = 21;
  looped.main_loop_constant_stall_points = 2;
  set_sass(kernel, looped);
  EXPECT_EQ(kernel.sass().constant_loads(), 7u);
  EXPECT_EQ(kernel.sass().constant_stall_points(), 5u);
  EXPECT_EQ(kernel.sass().constant_cover_cycles(), 21u);
  EXPECT_EQ(kernel.sass().main_loop_constant_stall_points(), 2u);
  EXPECT_EQ(kernel.sass().integer_multiplies(), 9u);
  EXPECT_EQ(kernel.sass().wide_integer_multiplies(), 5u);
  EXPECT_EQ(kernel.sass().main_loop_integer_multiplies(), 6u);
  EXPECT_EQ(kernel.sass().main_loop_wide_integer_multiplies(), 4u);
  EXPECT_EQ(kernel.sass().matrix_instructions(), 8u);
  EXPECT_EQ(kernel.sass().mma_pipe_fp16_fmas(), 3u);
  EXPECT_EQ(kernel.sass().global_cover_cycles(), 20u);
  EXPECT_EQ(kernel.sass().main_loop_instructions(), 12u);
  EXPECT_EQ(kernel.sass().main_loop_stall_cycles(), 30u);
  EXPECT_EQ(kernel.sass().main_loop_global_loads(), 4u);
  EXPECT_EQ(kernel.sass().main_loop_global_stall_points(), 1u);
}

TEST(SassSummary, StoreFindsByNameAndALaterModuleReplaces) {
  SassSummaries store;
  EXPECT_FALSE(store.find(kDependent).has_value());
  store.add(*summarize_cubin(fixture_cubin()));
  EXPECT_EQ(store.size(), 3u);
  ASSERT_TRUE(store.find(kDependent).has_value());
  EXPECT_EQ(store.find(kDependent)->stall_cycles, 153u);
  store.add({{kDependent, 1, 1, 0, 0, 0}});
  EXPECT_EQ(store.find(kDependent)->stall_cycles, 1u);
  EXPECT_EQ(store.size(), 3u);
}

TEST(SassSummary, StoreTakesModulesWhileKernelsAreLookedUp) {
  SassSummaries store;
  std::thread loader([&] {
    for (int i = 0; i < 200; ++i) store.add({{"k" + std::to_string(i), 1, 2, 0, 0, 0}});
  });
  std::size_t found = 0;
  for (int pass = 0; pass < 50; ++pass)
    for (int i = 0; i < 200; ++i) found += store.find("k" + std::to_string(i)).has_value() ? 1u : 0u;
  loader.join();
  EXPECT_EQ(store.size(), 200u);
  EXPECT_LE(found, 50u * 200u);
  for (int i = 0; i < 200; ++i) EXPECT_TRUE(store.find("k" + std::to_string(i)).has_value()) << i;
}

}  // namespace
}  // namespace warpsim::trace

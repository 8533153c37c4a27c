#pragma once
/// @brief Which global loads of a kernel find their line already on its way: from the kernel's PTX, the address each
/// thread's global loads compute, and so which of the loads the warps resident on one SM issue at the same
/// instruction ask for a line another of them asked for first. Such a load waits for the line like the first one,
/// yet the L1 counts it as a hit (workloads/microbench_hit_on_miss: 7 of 8 hits, a DRAM round trip each); the hit
/// rates cannot tell it from reuse of a line that arrived long before. Pure: no CUDA.
///
/// What is assumed: every thread runs every load (branches are not followed); the warps resident on an SM run a
/// loop in step, so a loop's load is compared at the same iteration across them (iterations 1-4: its first
/// definitions give iteration 0, its updates the next ones); an SM holds blocks id, id + SMs, id + 2 SMs, ... wave
/// after wave and keeps every line it fetched (a line seen in an earlier wave or iteration is a true hit); a kernel
/// parameter is a distinct large number (an array's base, or a size that makes rows lie lines apart); a loaded value
/// is a hash of its address (threads that load the same word go on to the same addresses; a gather's do not).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace warpsim::trace {

/// A kernel's global loads and the register definitions their addresses come from (ptx_loads.cc).
struct PtxKernel {
  struct Operand {
    enum class Kind : std::uint8_t { kNone, kRegister, kImmediate, kSpecial, kParam, kUnknown };
    Kind kind = Kind::kNone;
    std::int64_t value = 0;  // register index, immediate, special register index, or parameter value
  };
  /// What a definition computes: integer arithmetic the evaluator follows, a parameter, a loaded value (a hash of its
  /// address), or an instruction it does not know (its result unknown).
  enum class Op : std::uint8_t {
    kUnknown,
    kMove,
    kAdd,
    kSub,
    kMul,
    kMad,
    kShl,
    kShr,
    kAnd,
    kOr,
    kXor,
    kNeg,
    kDiv,
    kRem,
    kMin,
    kMax,
    kParamValue,  // ld.param: operand 0 holds the parameter's stand-in value
    kLoadValue,   // any other load: operand 0 the address register, `offset` added
  };
  /// Special registers, operand value s * 3 + axis: %tid, %ctaid, %ntid, %nctaid, each .x .y .z.
  static constexpr std::size_t kSpecials = 12;
  struct Definition {
    Op op = Op::kUnknown;
    std::vector<Operand> operands;
    std::int64_t offset = 0;  // a load's [reg+offset]
  };
  struct Load {
    Operand address;
    std::int64_t offset = 0;
    std::uint32_t bytes = 4;  // per thread
    bool in_loop = false;
  };
  std::vector<Definition> first;                          // by register index: its first definition
  std::unordered_map<std::uint32_t, Definition> updates;  // a register defined again: its last definition
  std::vector<Load> loads;                                // global loads, in code order
};

/// Every `.entry` of a PTX module by its (mangled) name. Instructions it does not know make their results unknown:
/// a load whose address depends on one is taken as shared by no other warp.
std::unordered_map<std::string, PtxKernel> parse_ptx(std::string_view ptx);

/// A launch as one SM sees it.
struct LaunchGeometry {
  std::uint32_t block[3] = {1, 1, 1};
  std::uint32_t grid[3] = {1, 1, 1};
  std::uint32_t resident_blocks = 1;  // blocks an SM holds at once
  std::uint32_t sm_count = 1;
};

/// The share of the kernel's global-load line requests on one SM that find their line requested by another
/// resident warp at the same instruction and not yet arrived (the mean over its loads, each over the waves).
double inflight_request_share(const PtxKernel& kernel, const LaunchGeometry& launch);

}  // namespace warpsim::trace

#pragma once
// The instruction kinds of the `petri` variant's warp net: the paper's three (arithmetic, shared, global) with
// arithmetic split by execution pipe and local memory apart from global.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace warpsim::models::petri {

enum class InstructionKind : uint8_t { kFp32, kFp64, kInt, kSfu, kTensor, kShared, kGlobal, kLocal };

inline constexpr size_t kInstructionKinds = 8;

inline constexpr std::array<InstructionKind, kInstructionKinds> kAllInstructionKinds{
    InstructionKind::kFp32,   InstructionKind::kFp64,   InstructionKind::kInt,    InstructionKind::kSfu,
    InstructionKind::kTensor, InstructionKind::kShared, InstructionKind::kGlobal, InstructionKind::kLocal};

/// "fp32", "fp64", "int", "sfu", "tensor", "shared", "global", "local": used in place and transition names.
inline constexpr std::string_view kind_name(InstructionKind kind) {
  constexpr std::array<std::string_view, kInstructionKinds> names{"fp32",   "fp64",   "int",    "sfu",
                                                                  "tensor", "shared", "global", "local"};
  return names[static_cast<size_t>(kind)];
}

inline constexpr size_t kind_index(InstructionKind kind) { return static_cast<size_t>(kind); }

/// Global and local accesses go to the memory hierarchy beyond the SM: they hold a DRAM request slot.
inline constexpr bool goes_to_dram(InstructionKind kind) {
  return kind == InstructionKind::kGlobal || kind == InstructionKind::kLocal;
}

/// Something per instruction kind, indexed by kind_index(kind).
template <typename T>
using PerKind = std::array<T, kInstructionKinds>;

}  // namespace warpsim::models::petri

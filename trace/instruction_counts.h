#pragma once
/// @brief How often each instruction of a kernel ran: warp executions per instruction, as CUPTI's SASS metrics count
/// them (smsp__sass_inst_executed; workloads/probe_sass_metrics' count_inject writes them), summed over the launches
/// of the run that counted them. Executions depend on the program and its input, not on the GPU that ran it: the same
/// cubin gives the same counts on H100 and H200.

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <unordered_map>

namespace warpsim::trace {

/// Warp executions by the instruction's offset in bytes from its function's start.
using InstructionExecutions = std::map<std::uint32_t, std::uint64_t>;
/// By mangled function name.
using ExecutionsByFunction = std::unordered_map<std::string, InstructionExecutions>;

/// Reads count files: lines `count <mangled function> <pc offset, hex or decimal> <warp executions>`, blank lines
/// and `#` comments skipped. `path` is one such file or a directory of them (every regular file in it, not below).
/// A function counted in several files, or an instruction in several lines, adds up. Throws TraceError naming the
/// file and line of a malformed line, or a path that is neither.
ExecutionsByFunction read_instruction_counts(const std::filesystem::path& path);
/// The same, added to `counts` (several paths into one table).
void add_instruction_counts(const std::filesystem::path& path, ExecutionsByFunction& counts);

}  // namespace warpsim::trace

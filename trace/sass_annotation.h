#pragma once
/// @brief Upgrading a trace's SASS summaries from the program's cubins: traces recorded before a summary field
/// existed (or kernels of modules the tracer could not read) get the summary the tracer would record today. The
/// compiler is deterministic, so a cubin built from the same source with the same nvcc and flags holds the same code
/// (check: the fields the trace already has must agree).

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "instruction_counts.h"

namespace warpsim::trace {

struct SassAnnotation {
  std::uint64_t kernels = 0;    ///< kernel launches in the trace
  std::uint64_t annotated = 0;  ///< of them, given the summary of a function of the cubins
  std::uint64_t disagreed = 0;  ///< of those, launches whose old summary differs from the cubin's (other code)
  std::vector<std::string> unknown_functions;  ///< kernels (mangled) no cubin holds, each once
  std::uint64_t shared_loads_annotated = 0;    ///< launches given the load sharing of a PTX entry
  std::uint64_t executions_annotated = 0;      ///< of `annotated`, launches given executed fields (counted functions)
  std::vector<std::string> counts_outside_code;  ///< functions whose counts name offsets outside their code: not used
};

/// Writes `output`: `input` with every kernel whose mangled name is a function of one of `cubins` carrying that
/// function's summary (trace/sass_summary.h). A kernel whose recorded summary disagrees with the cubin on the fields
/// both have keeps its own and counts in `disagreed`. Each of `cubins` may also be a fatbin, or a program or library
/// that embeds fatbins (libcublasLt.so): their cubins for the trace's GPU (its first device's compute capability)
/// count (trace/fatbin.h). Throws TraceError for an unreadable trace, a file with no Volta-or-later code for that
/// GPU, and when `output` is `input`. Written under a temporary name and renamed at the end. Each kernel that is an
/// `.entry` of one of `ptx_files` (nvcc -ptx, the program's flags) also gets its LoadSharing (trace/ptx_loads.h) at
/// the trace's GPU's SM count, for every count of resident blocks its block size allows. With `executions`
/// (instruction_counts.h), each kernel of a counted function also gets the summary's executed fields.
SassAnnotation annotate_sass(const std::filesystem::path& input, const std::vector<std::filesystem::path>& cubins,
                             const std::filesystem::path& output,
                             const std::vector<std::filesystem::path>& ptx_files = {},
                             const ExecutionsByFunction* executions = nullptr);

}  // namespace warpsim::trace

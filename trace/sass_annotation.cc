#include "sass_annotation.h"

#include <fstream>
#include <iterator>
#include <set>
#include <span>
#include <unordered_map>

#include "sass_summary.h"
#include "trace_error.h"
#include "trace_reader.h"
#include "trace_writer.h"

namespace warpsim::trace {
namespace {

using FunctionsByName = std::unordered_map<std::string, SassFunctionSummary>;

void read_cubin(const std::filesystem::path& path, FunctionsByName& functions) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TraceError(path.string(), std::nullopt, "cannot open the cubin");
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto summaries = summarize_cubin(std::as_bytes(std::span(bytes.data(), bytes.size())));
  if (!summaries) throw TraceError(path.string(), std::nullopt, "not a cubin (a 64-bit ELF), or cut short or corrupt");
  if (summaries->empty())
    throw TraceError(path.string(), std::nullopt, "no kernel code for Volta or later (nvcc -cubin -arch=sm_XX)");
  for (const SassFunctionSummary& function : *summaries) functions.insert_or_assign(function.name, function);
}

// The fields every recorded summary has: equal when the trace's kernel ran the cubin's code.
bool same_code(const SassSummary& recorded, const SassFunctionSummary& cubin) {
  return recorded.instructions() == cubin.instructions && recorded.stall_cycles() == cubin.stall_cycles &&
         recorded.variable_latency() == cubin.variable_latency && recorded.cover_cycles() == cubin.cover_cycles &&
         recorded.uncovered() == cubin.uncovered;
}

void write_annotated(TraceReader& reader, const FunctionsByName& functions, const std::filesystem::path& path,
                     SassAnnotation& result) {
  TraceWriter writer(path, reader.header());
  std::set<std::string> unknown;
  Event event;
  while (reader.next(event)) {
    if (event.has_kernel()) {
      KernelLaunch& kernel = *event.mutable_kernel();
      ++result.kernels;
      const auto found = functions.find(kernel.name());
      if (found == functions.end()) {
        unknown.insert(kernel.name());
      } else if (kernel.has_sass() && !same_code(kernel.sass(), found->second)) {
        ++result.disagreed;
      } else {
        set_sass(kernel, found->second);
        ++result.annotated;
      }
    }
    writer.write(event);
  }
  writer.close();
  result.unknown_functions.assign(unknown.begin(), unknown.end());
}

}  // namespace

SassAnnotation annotate_sass(const std::filesystem::path& input, const std::vector<std::filesystem::path>& cubins,
                             const std::filesystem::path& output) {
  std::error_code ignored;
  if (std::filesystem::equivalent(input, output, ignored))
    throw TraceError(output.string(), std::nullopt, "is the input trace: write the annotated trace elsewhere");
  FunctionsByName functions;
  for (const auto& cubin : cubins) read_cubin(cubin, functions);
  TraceReader reader(input);
  SassAnnotation result;
  const std::filesystem::path partial = output.string() + ".partial";
  try {
    write_annotated(reader, functions, partial, result);
  } catch (...) {
    std::filesystem::remove(partial, ignored);
    throw;
  }
  std::filesystem::rename(partial, output);
  return result;
}

}  // namespace warpsim::trace

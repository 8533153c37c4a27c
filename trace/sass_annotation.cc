#include "sass_annotation.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <span>
#include <unordered_map>

#include "atomic_output.h"
#include "fatbin.h"
#include "ptx_loads.h"
#include "sass_summary.h"
#include "trace_error.h"
#include "trace_reader.h"
#include "trace_writer.h"

namespace warpsim::trace {
namespace {

using FunctionsByName = std::unordered_map<std::string, SassFunctionSummary>;

void add_functions(const std::vector<SassFunctionSummary>& summaries, FunctionsByName& functions) {
  for (const SassFunctionSummary& function : summaries) functions.insert_or_assign(function.name, function);
}

// The functions of the cubins of `arch` in a fatbin, or in the fatbins a host program or library embeds; how many
// cubins had functions.
std::size_t read_fatbins(const std::filesystem::path& path, std::span<const std::byte> image, std::uint32_t arch,
                         const ExecutionsByFunction* executions, FunctionsByName& functions) {
  const auto found = fatbin_cubins(image, arch);
  if (!found) throw TraceError(path.string(), std::nullopt, "a fatbin in it is cut short or corrupt");
  std::size_t used = 0;
  for (const auto& cubin : found->cubins) {
    const auto summaries = summarize_cubin(cubin, executions);
    if (!summaries) throw TraceError(path.string(), std::nullopt, "a cubin of its fatbins is cut short or corrupt");
    add_functions(*summaries, functions);
    if (!summaries->empty()) ++used;
  }
  return used;
}

// A cubin, a fatbin, or a host file embedding fatbins (a program, a library such as libcublasLt.so).
void read_cubin(const std::filesystem::path& path, std::uint32_t arch, const ExecutionsByFunction* executions,
                FunctionsByName& functions) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TraceError(path.string(), std::nullopt, "cannot open the cubin");
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto image = std::as_bytes(std::span(bytes.data(), bytes.size()));
  if (!is_fatbin_image(image)) {
    const auto summaries = summarize_cubin(image, executions);
    if (summaries && !summaries->empty()) return add_functions(*summaries, functions);
  }
  if (read_fatbins(path, image, arch, executions, functions) == 0)
    throw TraceError(path.string(), std::nullopt,
                     "no kernel code for sm_" + std::to_string(arch) +
                         " (a cubin from nvcc -cubin -arch=sm_XX, a fatbin, or a program or library embedding them)");
}

// The architecture of the trace's first device, major*10+minor; 0 when it does not say.
std::uint32_t trace_arch(const TraceHeader& header) {
  if (header.devices().empty()) return 0;
  const Device& d = header.devices(0);
  return d.compute_capability_major() * 10 + d.compute_capability_minor();
}

// The fields every recorded summary has: equal when the trace's kernel ran the cubin's code.
bool same_code(const SassSummary& recorded, const SassFunctionSummary& cubin) {
  return recorded.instructions() == cubin.instructions && recorded.stall_cycles() == cubin.stall_cycles &&
         recorded.variable_latency() == cubin.variable_latency && recorded.cover_cycles() == cubin.cover_cycles &&
         recorded.uncovered() == cubin.uncovered;
}

using PtxKernels = std::unordered_map<std::string, PtxKernel>;

void read_ptx(const std::filesystem::path& path, PtxKernels& kernels) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TraceError(path.string(), std::nullopt, "cannot open the PTX file");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.find(".version") == std::string::npos)
    throw TraceError(path.string(), std::nullopt, "is not PTX (no .version directive; nvcc -ptx writes one)");
  for (auto& [name, kernel] : parse_ptx(text)) kernels.insert_or_assign(name, std::move(kernel));
}

// The most blocks of `kernel`'s size an SM of `device` can hold (2048 threads and 32 blocks where it does not say).
std::uint32_t most_resident_blocks(const KernelLaunch& kernel, const Device* device) {
  const auto dim = [](std::uint32_t d) { return std::max<std::uint64_t>(d, 1); };
  const std::uint64_t threads = dim(kernel.block().x()) * dim(kernel.block().y()) * dim(kernel.block().z());
  const std::uint64_t max_threads = device && device->max_threads_per_sm() ? device->max_threads_per_sm() : 2048;
  const std::uint64_t max_blocks = device && device->max_blocks_per_sm() ? device->max_blocks_per_sm() : 32;
  return static_cast<std::uint32_t>(std::max<std::uint64_t>(1, std::min(max_blocks, max_threads / threads)));
}

const Device* device_of(const TraceHeader& header, std::uint32_t id) {
  for (const Device& d : header.devices())
    if (d.id() == id) return &d;
  return nullptr;
}

// The kernel's load sharing for each count of resident blocks; computed once per function and launch shape.
void set_load_sharing(KernelLaunch& kernel, const PtxKernel& ptx, const Device* device,
                      std::unordered_map<std::string, LoadSharing>& cache) {
  const std::string key = kernel.name() + "|" + kernel.block().SerializeAsString() + "|" +
                          kernel.grid().SerializeAsString() + "|" + std::to_string(kernel.device_id());
  auto [it, added] = cache.try_emplace(key);
  if (added) {
    LaunchGeometry g;
    g.block[0] = std::max<std::uint32_t>(kernel.block().x(), 1);
    g.block[1] = std::max<std::uint32_t>(kernel.block().y(), 1);
    g.block[2] = std::max<std::uint32_t>(kernel.block().z(), 1);
    g.grid[0] = std::max<std::uint32_t>(kernel.grid().x(), 1);
    g.grid[1] = std::max<std::uint32_t>(kernel.grid().y(), 1);
    g.grid[2] = std::max<std::uint32_t>(kernel.grid().z(), 1);
    g.sm_count = device && device->sm_count() ? device->sm_count() : 1;
    it->second.set_sm_count(g.sm_count);
    it->second.set_global_loads(static_cast<std::uint32_t>(ptx.loads.size()));
    for (std::uint32_t r = 1; r <= most_resident_blocks(kernel, device); ++r) {
      g.resident_blocks = r;
      it->second.add_inflight_request_share(inflight_request_share(ptx, g));
    }
  }
  *kernel.mutable_load_sharing() = it->second;
}

void write_annotated(TraceReader& reader, const FunctionsByName& functions, const PtxKernels& ptx,
                     const std::filesystem::path& path, SassAnnotation& result) {
  TraceWriter writer(path, reader.header());
  std::unordered_map<std::string, LoadSharing> sharing;
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
        if (found->second.executed_instructions > 0) ++result.executions_annotated;
      }
      if (const auto entry = ptx.find(kernel.name()); entry != ptx.end()) {
        set_load_sharing(kernel, entry->second, device_of(reader.header(), kernel.device_id()), sharing);
        ++result.shared_loads_annotated;
      }
    }
    writer.write(event);
  }
  writer.close();
  result.unknown_functions.assign(unknown.begin(), unknown.end());
}

}  // namespace

SassAnnotation annotate_sass(const std::filesystem::path& input, const std::vector<std::filesystem::path>& cubins,
                             const std::filesystem::path& output, const std::vector<std::filesystem::path>& ptx_files,
                             const ExecutionsByFunction* executions) {
  std::vector<std::filesystem::path> inputs{input};
  inputs.insert(inputs.end(), cubins.begin(), cubins.end());
  inputs.insert(inputs.end(), ptx_files.begin(), ptx_files.end());
  refuse_outputs_over_inputs({output}, inputs);
  TraceReader reader(input);
  FunctionsByName functions;
  for (const auto& cubin : cubins) read_cubin(cubin, trace_arch(reader.header()), executions, functions);
  SassAnnotation result;
  for (const auto& [name, function] : functions)
    if (function.executions_outside_code) result.counts_outside_code.push_back(name);
  std::sort(result.counts_outside_code.begin(), result.counts_outside_code.end());
  PtxKernels ptx;
  for (const auto& file : ptx_files) read_ptx(file, ptx);
  write_annotated(reader, functions, ptx, output, result);  // whole or not at all (TraceWriter)
  return result;
}

}  // namespace warpsim::trace

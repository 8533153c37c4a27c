#include "outputs/kernels_csv.h"

#include <fmt/format.h>

#include <iterator>
#include <optional>

#include "analysis/kernel_name.h"
#include "trace_read_ahead.h"

namespace warpsim::report {
namespace {

constexpr const char* kHeader =
    "device,stream,correlation_id,name,demangled,grid_x,grid_y,grid_z,block_x,block_y,block_z,registers,"
    "shared_bytes,start_ns,end_ns,duration_ns,inst_executed,dram_bytes,l2_bytes\n";

// Empty for a counter the kernel lacks: 0 would claim it was measured.
std::string optional_field(const std::optional<std::uint64_t>& value) {
  return value ? std::to_string(*value) : std::string();
}

std::optional<std::uint64_t> inst_executed(const KernelLaunch& k) {
  const auto& warp = k.counters().warp_instructions();
  if (!k.has_counters() || !warp.has_total()) return std::nullopt;
  return warp.total();
}

std::optional<std::uint64_t> dram_bytes(const KernelLaunch& k) {
  const MemoryTraffic& memory = k.counters().memory();
  if (!k.has_counters() || (!memory.has_dram_read_bytes() && !memory.has_dram_write_bytes())) return std::nullopt;
  return memory.dram_read_bytes() + memory.dram_write_bytes();
}

std::optional<std::uint64_t> l2_bytes(const KernelLaunch& k) {
  if (!k.has_counters() || !k.counters().memory().has_l2_bytes()) return std::nullopt;
  return k.counters().memory().l2_bytes();
}

std::string kernel_row(const KernelLaunch& k) {
  std::string row;
  auto out = std::back_inserter(row);
  fmt::format_to(out, "{},{},{},{},{},", k.device_id(), k.stream_id(), k.correlation_id(), csv_field(k.name()),
                 csv_field(readable_kernel_name(k.name())));
  fmt::format_to(out, "{},{},{},{},{},{},", k.grid().x(), k.grid().y(), k.grid().z(), k.block().x(), k.block().y(),
                 k.block().z());
  fmt::format_to(out, "{},{},{},{},{},", k.registers_per_thread(),
                 std::uint64_t{k.static_shared_memory_bytes()} + k.dynamic_shared_memory_bytes(), k.start_ns(),
                 k.end_ns(), k.end_ns() - k.start_ns());
  fmt::format_to(out, "{},{},{}\n", optional_field(inst_executed(k)), optional_field(dram_bytes(k)),
                 optional_field(l2_bytes(k)));
  return row;
}

}  // namespace

std::string csv_field(const std::string& field) {
  if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
  std::string quoted = "\"";
  for (const char c : field) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

KernelsCsvResult write_kernels_csv(const std::filesystem::path& trace, std::ostream& out) {
  TraceReadAhead reader(trace);
  KernelsCsvResult result;
  out << kHeader;
  Event event;
  while (reader.next(event)) {
    if (!event.has_kernel()) continue;
    out << kernel_row(event.kernel());
    ++result.rows;
  }
  result.truncation_warning = reader.finished_reader().truncation_warning();
  return result;
}

}  // namespace warpsim::report

#pragma once
/// @brief Synthetic traces for tests and for tests/data/: builders with sensible defaults, so a test states only
/// what it varies. Values imitate two H100 linked by NVLink; the header's mode says SYNTHETIC.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "trace.pb.h"

namespace warpsim::testing {

/// A header with two H100-like devices (ids 0 and 1), NV18 between them and a PCIe Gen5 x16 link from each to the host.
TraceHeader two_gpu_header();

/// A kernel on `device`/`stream`, 108x1x1 blocks of 256 threads, running [start_ns, start_ns + duration_ns).
Event kernel_event(std::uint32_t device, std::uint32_t stream, const std::string& name, std::uint64_t start_ns,
                   std::uint64_t duration_ns);
/// Plausible counters for a kernel moving `bytes` through DRAM; every typed group has at least one field set.
KernelCounters sample_counters(std::uint64_t bytes);
/// A copy of `bytes`; src/dst devices follow from the kind (PtoP copies from `device` to the other GPU).
Event copy_event(Memcpy::Kind kind, std::uint64_t bytes, std::uint32_t device, std::uint32_t stream,
                 std::uint64_t start_ns, std::uint64_t duration_ns);
Event memset_event(std::uint32_t device, std::uint32_t stream, std::uint64_t bytes, std::uint64_t start_ns);
Event sync_event(Synchronization::Type type, std::uint32_t device, std::uint32_t stream, std::uint64_t event_id,
                 std::uint64_t start_ns);
Event marker_event(const std::string& name, std::uint64_t start_ns, std::uint64_t end_ns);
/// A runtime API call of process 1's thread `thread`, running [start_ns, end_ns).
Event api_call_event(std::uint64_t thread, const std::string& name, std::uint64_t start_ns, std::uint64_t end_ns,
                     std::uint64_t correlation);

/// The content of tests/data/sample.wstrace: a two-GPU halo-exchange loop with every event kind.
std::vector<Event> sample_events();

/// Writes a closed trace of `events` to `path`.
void write_trace(const std::filesystem::path& path, const TraceHeader& header, const std::vector<Event>& events);
/// The bytes of a closed trace of `events`.
std::string trace_bytes(const TraceHeader& header, const std::vector<Event>& events);

std::string read_file(const std::filesystem::path& path);
void write_file(const std::filesystem::path& path, const std::string& bytes);

/// A fresh empty directory under the system temp dir, removed when the process ends.
std::filesystem::path fresh_temp_dir();

}  // namespace warpsim::testing

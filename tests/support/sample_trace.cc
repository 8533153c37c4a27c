#include "sample_trace.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "trace_writer.h"

namespace warpsim::testing {
namespace {

constexpr std::uint64_t kStartNs = 1'763'784'000'000'000'000;  // 2025-11-22, as a CUPTI timestamp would be

Device h100_like(std::uint32_t id) {
  Device d;
  d.set_id(id);
  d.set_name("NVIDIA H100 80GB HBM3");
  d.set_uuid("GPU-synthetic-" + std::to_string(id));
  d.set_compute_capability_major(9);
  d.set_compute_capability_minor(0);
  d.set_sm_count(132);
  d.set_sm_clock_khz(1'980'000);
  d.set_memory_clock_khz(2'619'000);
  d.set_memory_bus_width_bits(5120);
  d.set_dram_bandwidth_bytes_per_s(3'352'000'000'000);
  d.set_global_memory_bytes(85'520'809'984);
  d.set_l2_cache_bytes(52'428'800);
  d.set_warp_size(32);
  d.set_max_warps_per_sm(64);
  d.set_max_blocks_per_sm(32);
  d.set_max_threads_per_block(1024);
  d.set_max_registers_per_sm(65536);
  d.set_max_registers_per_block(65536);
  d.set_max_shared_memory_per_sm_bytes(233'472);
  d.set_max_shared_memory_per_block_bytes(49'152);
  d.set_max_shared_memory_per_block_optin_bytes(232'448);
  return d;
}

Endpoint device_endpoint(std::uint32_t id) {
  Endpoint e;
  e.set_kind(Endpoint::DEVICE);
  e.set_device_id(id);
  return e;
}

Link pcie_to_host(std::uint32_t device) {
  Link link;
  link.set_type(Link::PCIE);
  *link.mutable_a() = device_endpoint(device);
  link.mutable_b()->set_kind(Endpoint::HOST);
  link.set_pcie_generation(5);
  link.set_pcie_lanes(16);
  return link;
}

Dim3 dim3(std::uint32_t x, std::uint32_t y = 1, std::uint32_t z = 1) {
  Dim3 d;
  d.set_x(x);
  d.set_y(y);
  d.set_z(z);
  return d;
}

}  // namespace

TraceHeader two_gpu_header() {
  TraceHeader header;
  header.set_tool_version("synthetic");
  header.set_capture_host("synthetic-host");
  header.add_command_line("./halo_exchange");
  header.add_command_line("--iterations=4");
  header.set_start_time_unix_ns(kStartNs);
  header.set_mode(CAPTURE_MODE_SYNTHETIC);
  *header.add_devices() = h100_like(0);
  *header.add_devices() = h100_like(1);
  Link* nvlink = header.add_links();
  nvlink->set_type(Link::NVLINK);
  *nvlink->mutable_a() = device_endpoint(0);
  *nvlink->mutable_b() = device_endpoint(1);
  nvlink->set_link_count(18);
  nvlink->set_bandwidth_bytes_per_s(849'960'000'000);
  nvlink->set_nvlink_version(4);
  *header.add_links() = pcie_to_host(0);
  *header.add_links() = pcie_to_host(1);
  return header;
}

KernelCounters sample_counters(std::uint64_t bytes) {
  KernelCounters c;
  const std::uint64_t loads = bytes / 128;  // one 128-byte warp load per line
  c.mutable_thread_instructions()->set_fp32(loads * 32 * 8);
  c.mutable_thread_instructions()->set_ffma(loads * 32 * 6);
  c.mutable_thread_instructions()->set_integer(loads * 32 * 4);
  c.mutable_thread_instructions()->set_memory(loads * 32 * 2);
  c.mutable_warp_instructions()->set_total(loads * 16);
  c.mutable_warp_instructions()->set_global_ld(loads);
  c.mutable_warp_instructions()->set_global_st(loads / 2);
  c.mutable_warp_instructions()->set_shared_ld(loads * 2);
  c.mutable_pipes()->set_fma(loads * 8);
  c.mutable_pipes()->set_lsu(loads * 4);
  c.mutable_memory()->set_l1_bytes(bytes * 2);
  c.mutable_memory()->set_l1_hit_rate_pct(12.5);
  c.mutable_memory()->set_l2_bytes(bytes * 3 / 2);
  c.mutable_memory()->set_l2_hit_rate_pct(40.0);
  c.mutable_memory()->set_dram_read_bytes(bytes);
  c.mutable_memory()->set_dram_write_bytes(bytes / 2);
  c.set_achieved_occupancy_pct(78.25);
  c.set_ctas_launched(108);
  return c;
}

Event kernel_event(std::uint32_t device, std::uint32_t stream, const std::string& name, std::uint64_t start_ns,
                   std::uint64_t duration_ns) {
  Event event;
  KernelLaunch* k = event.mutable_kernel();
  k->set_device_id(device);
  k->set_stream_id(stream);
  k->set_name(name);
  *k->mutable_grid() = dim3(108);
  *k->mutable_block() = dim3(256);
  k->set_registers_per_thread(32);
  k->set_static_shared_memory_bytes(4096);
  k->set_start_ns(start_ns);
  k->set_end_ns(start_ns + duration_ns);
  k->set_correlation_id(start_ns % 100'000);
  k->set_launch_kind(KernelLaunch::REGULAR);
  return event;
}

Event copy_event(Memcpy::Kind kind, std::uint64_t bytes, std::uint32_t device, std::uint32_t stream,
                 std::uint64_t start_ns, std::uint64_t duration_ns) {
  Event event;
  Memcpy* m = event.mutable_memcpy();
  m->set_kind(kind);
  m->set_bytes(bytes);
  m->set_device_id(device);
  m->set_stream_id(stream);
  const bool from_device = kind == Memcpy::DTOH || kind == Memcpy::DTOD || kind == Memcpy::PTOP;
  const bool to_device = kind == Memcpy::HTOD || kind == Memcpy::DTOD || kind == Memcpy::PTOP;
  if (from_device) m->set_src_device_id(device);
  if (to_device) m->set_dst_device_id(kind == Memcpy::PTOP ? 1 - device : device);
  m->set_src_memory(from_device ? MEMORY_KIND_DEVICE : MEMORY_KIND_PINNED);
  m->set_dst_memory(to_device ? MEMORY_KIND_DEVICE : MEMORY_KIND_PINNED);
  m->set_start_ns(start_ns);
  m->set_end_ns(start_ns + duration_ns);
  m->set_correlation_id(start_ns % 100'000);
  return event;
}

Event memset_event(std::uint32_t device, std::uint32_t stream, std::uint64_t bytes, std::uint64_t start_ns) {
  Event event;
  Memset* m = event.mutable_memset();
  m->set_device_id(device);
  m->set_stream_id(stream);
  m->set_bytes(bytes);
  m->set_memory(MEMORY_KIND_DEVICE);
  m->set_start_ns(start_ns);
  m->set_end_ns(start_ns + bytes / 1000);
  return event;
}

Event sync_event(Synchronization::Type type, std::uint32_t device, std::uint32_t stream, std::uint64_t event_id,
                 std::uint64_t start_ns) {
  Event event;
  Synchronization* s = event.mutable_sync();
  s->set_type(type);
  s->set_device_id(device);
  s->set_stream_id(stream);
  if (type == Synchronization::EVENT_RECORD || type == Synchronization::STREAM_WAIT_EVENT ||
      type == Synchronization::EVENT_SYNCHRONIZE)
    s->set_event_id(event_id);
  s->set_start_ns(start_ns);
  s->set_end_ns(start_ns + 2'000);
  return event;
}

Event marker_event(const std::string& name, std::uint64_t start_ns, std::uint64_t end_ns) {
  Event event;
  Marker* m = event.mutable_marker();
  m->set_name(name);
  m->set_domain("halo_exchange");
  m->set_start_ns(start_ns);
  m->set_end_ns(end_ns);
  m->set_thread_id(4242);
  return event;
}

Event api_call_event(std::uint64_t thread, const std::string& name, std::uint64_t start_ns, std::uint64_t end_ns,
                     std::uint64_t correlation) {
  Event event;
  ApiCall& call = *event.mutable_api_call();
  call.set_domain(ApiCall::RUNTIME);
  call.set_name(name);
  call.set_start_ns(start_ns);
  call.set_end_ns(end_ns);
  call.set_process_id(1);
  call.set_thread_id(thread);
  call.set_correlation_id(correlation);
  return event;
}

std::vector<Event> sample_events() {
  constexpr std::uint64_t kField = 64ull << 20;  // bytes per GPU
  constexpr std::uint64_t kHalo = 2ull << 20;
  std::vector<Event> events;
  std::uint64_t t = kStartNs + 1'000'000;
  for (std::uint32_t gpu = 0; gpu < 2; ++gpu) {
    events.push_back(memset_event(gpu, 7, kField, t));
    events.push_back(copy_event(Memcpy::HTOD, kField, gpu, 7, t + 70'000, 1'270'000));
  }
  t += 1'400'000;
  for (std::uint64_t iteration = 0; iteration < 4; ++iteration) {
    const std::uint64_t begin = t;
    for (std::uint32_t gpu = 0; gpu < 2; ++gpu) {
      Event stencil = kernel_event(gpu, 7, "_Z16stencil_interiorPKfPfiii", t, 180'000);
      if (iteration % 2 == 0) *stencil.mutable_kernel()->mutable_counters() = sample_counters(2 * kField);
      events.push_back(stencil);
      events.push_back(kernel_event(gpu, 13, "_Z10pack_halosPKfPfi", t + 1'000, 9'000));
      events.push_back(sync_event(Synchronization::EVENT_RECORD, gpu, 13, 100 + gpu, t + 10'500));
      events.push_back(copy_event(Memcpy::PTOP, kHalo, gpu, 13, t + 11'000, 6'000));
      events.push_back(sync_event(Synchronization::STREAM_WAIT_EVENT, gpu, 7, 100 + (1 - gpu), t + 18'000));
      events.push_back(kernel_event(gpu, 7, "_Z12unpack_halosPKfPfi", t + 181'000, 8'000));
    }
    events.push_back(copy_event(Memcpy::DTOD, kHalo, 0, 7, t + 190'000, 1'500));
    t += 200'000;
    events.push_back(marker_event("iteration", begin, t));
  }
  for (std::uint32_t gpu = 0; gpu < 2; ++gpu) {
    events.push_back(copy_event(Memcpy::DTOH, kField, gpu, 7, t, 1'300'000));
    events.push_back(sync_event(Synchronization::STREAM_SYNCHRONIZE, gpu, 7, 0, t + 1'300'000));
  }
  events.push_back(copy_event(Memcpy::HTOH, kHalo, 0, 0, t + 1'310'000, 90'000));
  return events;
}

void write_trace(const std::filesystem::path& path, const TraceHeader& header, const std::vector<Event>& events) {
  TraceWriter writer(path, header);
  for (const Event& event : events) writer.write(event);
  writer.close();
}

std::string trace_bytes(const TraceHeader& header, const std::vector<Event>& events) {
  const auto path = fresh_temp_dir() / "trace.wstrace";
  write_trace(path, header, events);
  return read_file(path);
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

namespace {

// Removes the directories fresh_temp_dir() made when the test process ends.
struct TempDirs {
  std::vector<std::filesystem::path> made;
  ~TempDirs() {
    std::error_code ignored;
    for (const auto& dir : made) std::filesystem::remove_all(dir, ignored);
  }
};

}  // namespace

std::filesystem::path fresh_temp_dir() {
  static TempDirs dirs;
  static int counter = 0;
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string test = info ? std::string(info->test_suite_name()) + "." + info->name() : "no-test";
  const auto dir = std::filesystem::path(::testing::TempDir()) /
                   ("warpsim-" + test + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  dirs.made.push_back(dir);
  return dir;
}

}  // namespace warpsim::testing

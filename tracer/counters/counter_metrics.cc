#include "counters/counter_metrics.h"

#include <cmath>
#include <stdexcept>
#include <unordered_map>

namespace warpsim::tracer {
namespace {

using Setter = void (*)(KernelCounters&, double);

// 2^63: no count reaches it, and llround() of anything from here on overflows.
constexpr double kNoCount = 9223372036854775808.0;

std::uint64_t as_count(double value) { return value <= 0 ? 0 : static_cast<std::uint64_t>(std::llround(value)); }

// CUPTI metric -> KernelCounters field. The macros keep each line to the one fact it states.
#define THREAD(op, field) \
  {"smsp__sass_thread_inst_executed_op_" op "_pred_on.sum", \
   [](KernelCounters& c, double v) { c.mutable_thread_instructions()->set_##field(as_count(v)); }}
#define WARP(op, field) \
  {"smsp__sass_inst_executed_op_" op ".sum", \
   [](KernelCounters& c, double v) { c.mutable_warp_instructions()->set_##field(as_count(v)); }}
#define PIPE(pipe, field) \
  {"smsp__inst_executed_pipe_" pipe ".sum", [](KernelCounters& c, double v) { c.mutable_pipes()->set_##field(as_count(v)); }}
#define MEMORY(metric, field) \
  {metric, [](KernelCounters& c, double v) { c.mutable_memory()->set_##field(as_count(v)); }}
#define MEMORY_PCT(metric, field) {metric, [](KernelCounters& c, double v) { c.mutable_memory()->set_##field(v); }}
#define TENSOR(src, field) \
  {"sm__ops_path_tensor_src_" src ".sum", \
   [](KernelCounters& c, double v) { c.mutable_tensor_ops()->set_##field(as_count(v)); }}

struct Metric {
  const char* name;
  Setter set;
};

const std::vector<Metric>& core_metrics() {
  static const std::vector<Metric> metrics = {
      THREAD("fp32", fp32), THREAD("fp64", fp64), THREAD("fp16", fp16), THREAD("integer", integer),
      THREAD("bit", bit), THREAD("control", control), THREAD("conversion", conversion), THREAD("memory", memory),
      THREAD("misc", misc), THREAD("uniform", uniform), THREAD("inter_thread_communication", inter_thread_communication),
      THREAD("fadd", fadd), THREAD("fmul", fmul), THREAD("ffma", ffma), THREAD("dadd", dadd), THREAD("dmul", dmul),
      THREAD("dfma", dfma), THREAD("hadd", hadd), THREAD("hmul", hmul), THREAD("hfma", hfma),
      {"smsp__inst_executed.sum",
       [](KernelCounters& c, double v) { c.mutable_warp_instructions()->set_total(as_count(v)); }},
      WARP("global_ld", global_ld), WARP("global_st", global_st), WARP("global_atom", global_atom),
      WARP("global_red", global_red), WARP("shared_ld", shared_ld), WARP("shared_st", shared_st),
      WARP("shared_atom", shared_atom), WARP("local_ld", local_ld), WARP("local_st", local_st),
      WARP("branch", branch), WARP("ldgsts", ldgsts), WARP("ldsm", ldsm), WARP("tma", tma),
      PIPE("fma", fma), PIPE("alu", alu), PIPE("fp64", fp64), PIPE("lsu", lsu), PIPE("xu", xu), PIPE("cbu", cbu),
      PIPE("tensor", tensor), PIPE("uniform", uniform), PIPE("tma", tma), PIPE("tensor_op_hmma", tensor_hmma),
      PIPE("tensor_op_imma", tensor_imma), PIPE("tensor_op_dmma", tensor_dmma), PIPE("tensor_op_gmma", tensor_gmma),
      PIPE("adu", adu),
      MEMORY("l1tex__t_bytes.sum", l1_bytes), MEMORY("l1tex__t_sectors.sum", l1_sectors),
      MEMORY_PCT("l1tex__t_sector_hit_rate.pct", l1_hit_rate_pct),
      MEMORY("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", shared_wavefronts),
      MEMORY("lts__t_bytes.sum", l2_bytes), MEMORY("lts__t_sectors_op_read.sum", l2_read_sectors),
      MEMORY("lts__t_sectors_op_write.sum", l2_write_sectors),
      MEMORY_PCT("lts__t_sector_hit_rate.pct", l2_hit_rate_pct),
      MEMORY("lts__t_sectors_aperture_device.sum", l2_device_sectors),
      MEMORY("lts__t_sectors_aperture_peer.sum", l2_peer_sectors),
      MEMORY("lts__t_sectors_aperture_sysmem.sum", l2_sysmem_sectors),
      MEMORY("dram__bytes_read.sum", dram_read_bytes), MEMORY("dram__bytes_write.sum", dram_write_bytes),
      MEMORY("lts__t_requests_op_atom.sum", l2_atom_requests), MEMORY("lts__t_requests_op_red.sum", l2_red_requests),
      MEMORY("lts__t_sectors_op_atom.sum", l2_atom_sectors), MEMORY("lts__t_sectors_op_red.sum", l2_red_sectors),
      MEMORY("lts__t_requests_op_atom.max", l2_atom_requests_busiest_slice),
      MEMORY("lts__t_requests_op_red.max", l2_red_requests_busiest_slice),
      MEMORY("lts__t_sectors_op_atom.max", l2_atom_sectors_busiest_slice),
      MEMORY("lts__t_sectors_op_red.max", l2_red_sectors_busiest_slice),
      MEMORY("lts__t_sectors.max", l2_sectors_busiest_slice),
      MEMORY("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", shared_atom_wavefronts),
      MEMORY("l1tex__t_requests_pipe_lsu_mem_lg.sum", l1_lg_requests),
      MEMORY("l1tex__t_output_wavefronts_pipe_lsu_mem_lg.sum", l1_lg_tag_wavefronts),
      MEMORY("l1tex__data_pipe_lsu_wavefronts_mem_lgds.sum", l1_lgds_data_wavefronts),
      MEMORY("lts__t_requests_aperture_device_op_read_lookup_miss.sum", l2_device_read_miss_requests),
      MEMORY("lts__t_sectors_aperture_device_op_read_lookup_miss.sum", l2_device_read_miss_sectors),
      MEMORY("lts__t_requests_aperture_device_op_write_lookup_miss.sum", l2_device_write_miss_requests),
      MEMORY("lts__t_sectors_aperture_device_op_write_lookup_miss.sum", l2_device_write_miss_sectors),
      MEMORY("lts__d_sectors_fill_device.sum", l2_device_fill_sectors),
      MEMORY("lts__t_requests_srcunit_tex_op_read.sum", l2_tex_read_requests),
      MEMORY("lts__t_sectors_srcunit_tex_op_read.sum", l2_tex_read_sectors),
      MEMORY("lts__t_requests_srcunit_tex_op_write.sum", l2_tex_write_requests),
      MEMORY("lts__t_sectors_srcunit_tex_op_write.sum", l2_tex_write_sectors),
      {"sm__warps_active.avg.pct_of_peak_sustained_active",
       [](KernelCounters& c, double v) { c.set_achieved_occupancy_pct(v); }},
      {"sm__ctas_launched.sum", [](KernelCounters& c, double v) { c.set_ctas_launched(as_count(v)); }},
  };
  return metrics;
}

const std::vector<Metric>& link_metrics() {
  static const std::vector<Metric> metrics = {
      MEMORY("nvlrx__bytes.sum", nvlink_rx_bytes), MEMORY("nvltx__bytes.sum", nvlink_tx_bytes),
      MEMORY("pcie__read_bytes.sum", pcie_read_bytes), MEMORY("pcie__write_bytes.sum", pcie_write_bytes)};
  return metrics;
}

// DRAM's bytes and the L2's misses, in one pass. The core group takes 5 passes, and a kernel replayed for several
// passes (CUPTI saves and restores the memory it may write around them) does not start from the L2 the program's
// earlier kernels left: one that reads what its predecessor just read finds it in the L2 in the program and partly
// misses under replay (correlation's corr_std_kernel on H100: 5.0 MB from DRAM in the 5-pass core group and in a
// 2-pass version of this group, 0.01 MB in one pass). Every field is also in core; merged last,
// these replace core's. Kept to what fits one GH100 pass (tests/tracer/counters/cupti_host_metrics_test.cc): the
// L2's read sectors (lts__t_sectors_op_read) cannot join the miss counters there, and are a property of the kernel's
// accesses rather than of the L2's state, so core's stand.
const std::vector<Metric>& cache_metrics() {
  static const std::vector<Metric> metrics = {
      MEMORY("dram__bytes_read.sum", dram_read_bytes), MEMORY("dram__bytes_write.sum", dram_write_bytes),
      MEMORY("lts__t_requests_aperture_device_op_read_lookup_miss.sum", l2_device_read_miss_requests),
      MEMORY("lts__t_sectors_aperture_device_op_read_lookup_miss.sum", l2_device_read_miss_sectors),
      MEMORY("lts__t_sectors_aperture_device_op_write_lookup_miss.sum", l2_device_write_miss_sectors),
      MEMORY("lts__d_sectors_fill_device.sum", l2_device_fill_sectors)};
  return metrics;
}

const std::vector<Metric>& tensor_metrics() {
  static const std::vector<Metric> metrics = {TENSOR("fp16", fp16), TENSOR("bf16_dst_fp32", bf16),
                                              TENSOR("tf32_dst_fp32", tf32), TENSOR("fp8", fp8),
                                              TENSOR("int8", int8),          TENSOR("fp64", fp64)};
  return metrics;
}

const std::vector<Metric>& group_metrics(MetricGroup group) {
  switch (group) {
    case MetricGroup::kLinks: return link_metrics();
    case MetricGroup::kTensor: return tensor_metrics();
    case MetricGroup::kCache: return cache_metrics();
    case MetricGroup::kCore: break;
  }
  return core_metrics();
}

#undef THREAD
#undef WARP
#undef PIPE
#undef MEMORY
#undef MEMORY_PCT
#undef TENSOR

const std::unordered_map<std::string_view, Setter>& setters() {
  static const auto table = [] {
    std::unordered_map<std::string_view, Setter> t;
    for (const auto* group : {&core_metrics(), &link_metrics(), &tensor_metrics(), &cache_metrics()})
      for (const Metric& m : *group) t.emplace(m.name, m.set);
    return t;
  }();
  return table;
}

}  // namespace

std::vector<std::string> metric_names(MetricGroup group) {
  std::vector<std::string> names;
  for (const Metric& m : group_metrics(group)) names.emplace_back(m.name);
  return names;
}

void set_counter(KernelCounters& counters, std::string_view metric, double value) {
  // What a chip cannot measure comes back as no number or one beyond any count: on a GPU without NVLink peers the
  // links group's nvlrx__bytes and nvltx__bytes (H100 and H200 alone), stored as 2^63 before. Such a value is no
  // measurement: the field stays unset.
  if (!std::isfinite(value) || value >= kNoCount) return;
  if (const auto it = setters().find(metric); it != setters().end()) {
    it->second(counters, value);
    return;
  }
  (*counters.mutable_extra_metrics())[std::string(metric)] = value;
}

std::string base_metric(std::string_view metric) { return std::string(metric.substr(0, metric.find('.'))); }

MetricGroup parse_metric_group(std::string_view text) {
  if (text == "core") return MetricGroup::kCore;
  if (text == "links") return MetricGroup::kLinks;
  if (text == "tensor") return MetricGroup::kTensor;
  if (text == "cache") return MetricGroup::kCache;
  throw std::invalid_argument("metric group '" + std::string(text) + "': use core, links, tensor or cache");
}

}  // namespace warpsim::tracer

#include "analysis/link_usage.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "trace_reader.h"

namespace warpsim::report {
namespace {

std::optional<double> capacity_of(const Link& link) {
  if (!link.has_bandwidth_bytes_per_s()) return std::nullopt;
  return static_cast<double>(link.bandwidth_bytes_per_s()) / 1e9;
}

bool is_device(const Endpoint& end) { return end.kind() == Endpoint::DEVICE; }

// The series of each link, and which series an operation's bytes go on.
class LinkSeriesIndex {
 public:
  explicit LinkSeriesIndex(const TraceHeader& header) {
    for (const Link& link : header.links()) {
      if (link.type() == Link::NVLINK && is_device(link.a()) && is_device(link.b())) {
        const std::uint32_t a = link.a().device_id(), b = link.b().device_id();
        const std::size_t series = add(fmt::format("NVLink GPU{}-GPU{}", a, b), capacity_of(link));
        nvlink_[{std::min(a, b), std::max(a, b)}] = series;
        nvlinks_of_[a].push_back(series);
        nvlinks_of_[b].push_back(series);
      } else if (link.type() == Link::PCIE && is_device(link.a())) {
        const std::uint32_t gpu = link.a().device_id();
        to_gpu_[gpu] = add(fmt::format("PCIe GPU{} to GPU", gpu), capacity_of(link));
        to_host_[gpu] = add(fmt::format("PCIe GPU{} to host", gpu), capacity_of(link));
      }
    }
  }

  std::vector<LinkSeries>& series() { return series_; }
  std::optional<std::size_t> to_gpu(std::uint32_t gpu) const { return find(to_gpu_, gpu); }
  std::optional<std::size_t> to_host(std::uint32_t gpu) const { return find(to_host_, gpu); }
  std::optional<std::size_t> nvlink(std::uint32_t a, std::uint32_t b) const {
    const auto it = nvlink_.find({std::min(a, b), std::max(a, b)});
    return it == nvlink_.end() ? std::nullopt : std::optional<std::size_t>(it->second);
  }
  std::vector<std::size_t> nvlinks_of(std::uint32_t gpu) const {
    const auto it = nvlinks_of_.find(gpu);
    return it == nvlinks_of_.end() ? std::vector<std::size_t>{} : it->second;
  }

 private:
  std::size_t add(std::string name, std::optional<double> capacity) {
    series_.push_back({std::move(name), capacity, {}});
    return series_.size() - 1;
  }
  static std::optional<std::size_t> find(const std::map<std::uint32_t, std::size_t>& m, std::uint32_t gpu) {
    const auto it = m.find(gpu);
    return it == m.end() ? std::nullopt : std::optional<std::size_t>(it->second);
  }

  std::vector<LinkSeries> series_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> nvlink_;
  std::map<std::uint32_t, std::vector<std::size_t>> nvlinks_of_;
  std::map<std::uint32_t, std::size_t> to_gpu_, to_host_;
};

// Adds bytes moved evenly from start to end to the bins they overlap.
class Binner {
 public:
  Binner(std::uint64_t start_ns, std::uint64_t end_ns, std::size_t bins)
      : start_(start_ns), bin_ns_(std::max<std::uint64_t>(1, (end_ns - start_ns + bins - 1) / bins)), bins_(bins) {}

  std::uint64_t bin_ns() const { return bin_ns_; }

  void add(std::vector<double>& bytes, std::uint64_t start, std::uint64_t end, double moved) const {
    if (bytes.empty()) bytes.assign(bins_, 0);
    if (end <= start) end = start + 1;
    const double per_ns = moved / static_cast<double>(end - start);
    for (std::size_t bin = index(start); bin < bins_ && bin_start(bin) < end; ++bin) {
      const std::uint64_t from = std::max(start, bin_start(bin)), to = std::min(end, bin_start(bin) + bin_ns_);
      if (to > from) bytes[bin] += per_ns * static_cast<double>(to - from);
    }
  }

 private:
  std::size_t index(std::uint64_t t) const { return t <= start_? 0 : static_cast<std::size_t>((t - start_) / bin_ns_); }
  std::uint64_t bin_start(std::size_t bin) const { return start_ + bin * bin_ns_; }

  std::uint64_t start_, bin_ns_;
  std::size_t bins_;
};

class UsageCollector {
 public:
  UsageCollector(const TraceHeader& header, const Binner& binner) : index_(header), binner_(binner) {}

  void add(const Event& event) {
    if (event.has_memcpy()) add_copy(event.memcpy());
    if (event.has_kernel()) add_kernel(event.kernel());
  }

  std::vector<LinkSeries> finish() {
    std::vector<LinkSeries> busy;
    for (LinkSeries& series : index_.series()) {
      if (series.gb_per_s.empty()) continue;
      // Bytes per bin to GB/s: bytes / bin_ns is bytes per ns, which is GB/s.
      for (double& bytes : series.gb_per_s) bytes /= static_cast<double>(binner_.bin_ns());
      busy.push_back(std::move(series));
    }
    return busy;
  }

 private:
  void put(std::optional<std::size_t> series, std::uint64_t start, std::uint64_t end, double bytes) {
    if (!series || bytes <= 0 || end == 0) return;
    binner_.add(index_.series()[*series].gb_per_s, start, end, bytes);
  }

  void add_copy(const Memcpy& copy) {
    const auto bytes = static_cast<double>(copy.bytes());
    const std::uint64_t start = copy.start_ns(), end = copy.end_ns();
    switch (copy.kind()) {
      case Memcpy::HTOD: put(index_.to_gpu(copy.has_dst_device_id() ? copy.dst_device_id() : copy.device_id()), start, end, bytes); break;
      case Memcpy::DTOH: put(index_.to_host(copy.has_src_device_id() ? copy.src_device_id() : copy.device_id()), start, end, bytes); break;
      case Memcpy::PTOP: {
        const std::uint32_t src = copy.src_device_id(), dst = copy.dst_device_id();
        if (const auto nv = index_.nvlink(src, dst)) {
          put(nv, start, end, bytes);
        } else {
          put(index_.to_host(src), start, end, bytes);
          put(index_.to_gpu(dst), start, end, bytes);
        }
        break;
      }
      default: break;
    }
  }

  void add_kernel(const KernelLaunch& kernel) {
    if (!kernel.has_counters()) return;
    const MemoryTraffic& m = kernel.counters().memory();
    const std::uint64_t start = kernel.start_ns(), end = kernel.end_ns();
    put(index_.to_gpu(kernel.device_id()), start, end, static_cast<double>(m.pcie_read_bytes()));
    put(index_.to_host(kernel.device_id()), start, end, static_cast<double>(m.pcie_write_bytes()));
    const std::vector<std::size_t> nvlinks = index_.nvlinks_of(kernel.device_id());
    const double nvlink_bytes = static_cast<double>(m.nvlink_rx_bytes() + m.nvlink_tx_bytes());
    for (std::size_t series : nvlinks) put(series, start, end, nvlink_bytes / static_cast<double>(nvlinks.size()));
  }

  LinkSeriesIndex index_;
  const Binner& binner_;
};

}  // namespace

LinkUsage link_usage(const std::filesystem::path& path, std::uint64_t start_ns, std::uint64_t end_ns,
                     std::size_t bins) {
  TraceReader reader(path);
  const Binner binner(start_ns, std::max(end_ns, start_ns + 1), std::max<std::size_t>(bins, 1));
  UsageCollector collector(reader.header(), binner);
  Event event;
  while (reader.next(event)) collector.add(event);
  return {start_ns, binner.bin_ns(), collector.finish()};
}

}  // namespace warpsim::report

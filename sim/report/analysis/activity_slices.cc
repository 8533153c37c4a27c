#include "analysis/activity_slices.h"

#include <map>

#include "analysis/kernel_name.h"
#include "analysis/trace_labels.h"
#include "trace_reader.h"

namespace warpsim::report {
namespace {

class ActivityCollector {
 public:
  ActivityCollector(TraceActivity& out, std::size_t max_slices) : out_(out), max_slices_(max_slices) {}

  void add(const Event& event) {
    if (event.has_kernel()) {
      const KernelLaunch& k = event.kernel();
      add({k.device_id(), k.stream_id()}, SliceKind::kKernel, kernel_label(k.name()), k.start_ns(), k.end_ns(), 0);
    } else if (event.has_memcpy()) {
      const Memcpy& c = event.memcpy();
      add({c.device_id(), c.stream_id()}, SliceKind::kCopy, label(copy_kind_label(c.kind()) + " copy"), c.start_ns(),
          c.end_ns(), c.bytes());
    } else if (event.has_memset()) {
      const Memset& m = event.memset();
      add({m.device_id(), m.stream_id()}, SliceKind::kMemset, label("memset"), m.start_ns(), m.end_ns(), m.bytes());
    }
  }

 private:
  void add(StreamKey key, SliceKind kind, std::uint32_t label_id, std::uint64_t start, std::uint64_t end,
           std::uint64_t bytes) {
    if (end == 0) return;
    ++out_.operations;
    if (out_.slices.size() >= max_slices_) return;
    out_.slices.push_back({track(key), label_id, kind, start, end, bytes});
  }

  std::uint32_t track(StreamKey key) {
    const auto [it, added] = tracks_.try_emplace(key, static_cast<std::uint32_t>(out_.tracks.size()));
    if (added) out_.tracks.push_back(key);
    return it->second;
  }

  // Demangling is the costly part: once per mangled name.
  std::uint32_t kernel_label(const std::string& mangled) {
    const auto it = kernel_labels_.find(mangled);
    if (it != kernel_labels_.end()) return it->second;
    return kernel_labels_[mangled] = label(short_kernel_name(mangled));
  }

  std::uint32_t label(const std::string& text) {
    const auto [it, added] = labels_.try_emplace(text, static_cast<std::uint32_t>(out_.labels.size()));
    if (added) out_.labels.push_back(text);
    return it->second;
  }

  TraceActivity& out_;
  std::size_t max_slices_;
  std::map<StreamKey, std::uint32_t> tracks_;
  std::map<std::string, std::uint32_t> labels_, kernel_labels_;
};

}  // namespace

TraceActivity read_activity(const std::filesystem::path& path, std::size_t max_slices) {
  TraceReader reader(path);
  TraceActivity out;
  ActivityCollector collector(out, max_slices);
  Event event;
  while (reader.next(event)) collector.add(event);
  return out;
}

}  // namespace warpsim::report

#pragma once
// The GPU specs a node can name: every *.textproto in one gpus/ folder, found by GpuSpec.name.
#include <filesystem>
#include <map>
#include <string>

#include "platform.pb.h"
#include "text_format_loader.h"

namespace warpsim::platform {

/// One GPU spec file.
struct CatalogEntry {
  GpuSpec spec;
  TextFile file;
};

class GpuCatalog {
 public:
  /// Parses every *.textproto in `folder`. Throws PlatformError on a parse error, a missing name, a name defined
  /// twice, or a missing folder.
  static GpuCatalog load(const std::filesystem::path& folder);

  /// The spec named `name`, or nullptr.
  [[nodiscard]] const CatalogEntry* find(const std::string& name) const;

  /// Every spec by each CUDA device name it lists (GpuSpec.device_names); a name listed twice keeps the first file's.
  [[nodiscard]] std::map<std::string, GpuSpec> by_device_name() const;

  /// Every spec by GpuSpec.name.
  [[nodiscard]] const std::map<std::string, CatalogEntry>& entries() const { return entries_; }
  /// "A100-SXM4-80GB, H100-SXM5-80GB, ..." for messages that list the choices.
  [[nodiscard]] std::string known_names() const;

 private:
  void add(GpuSpec spec, TextFile file);

  std::map<std::string, CatalogEntry> entries_;
};

}  // namespace warpsim::platform

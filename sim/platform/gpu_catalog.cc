#include "gpu_catalog.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "platform.h"

namespace warpsim::platform {
namespace {

/// The folder's *.textproto files in name order, so that errors and duplicates are reported the same way every run.
std::vector<std::filesystem::path> spec_files(const std::filesystem::path& folder) {
  if (!std::filesystem::is_directory(folder)) {
    throw PlatformError(folder.string() + ": no such folder (GPU specs are read from the gpus/ folder beside nodes/)");
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.is_regular_file() && entry.path().extension() == ".textproto") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

GpuCatalog GpuCatalog::load(const std::filesystem::path& folder) {
  GpuCatalog catalog;
  for (const std::filesystem::path& path : spec_files(folder)) {
    GpuSpec spec;
    TextFile file = parse_text_file(path, spec);
    catalog.add(std::move(spec), std::move(file));
  }
  return catalog;
}

void GpuCatalog::add(GpuSpec spec, TextFile file) {
  const FieldPath name_field{{"name"}};
  if (spec.name().empty()) throw PlatformError(file.error_at(name_field, "must be set: nodes refer to the GPU by it"));
  const auto existing = entries_.find(spec.name());
  if (existing != entries_.end()) {
    throw PlatformError(file.error_at(
        name_field, "\"" + spec.name() + "\" is also the name in " + existing->second.file.path().string()));
  }
  std::string name = spec.name();
  entries_.emplace(std::move(name), CatalogEntry{std::move(spec), std::move(file)});
}

const CatalogEntry* GpuCatalog::find(const std::string& name) const {
  const auto found = entries_.find(name);
  return found == entries_.end() ? nullptr : &found->second;
}

std::map<std::string, GpuSpec> GpuCatalog::by_device_name() const {
  std::map<std::string, GpuSpec> specs;
  for (const auto& [name, entry] : entries_) {
    for (const std::string& device_name : entry.spec.device_names()) specs.emplace(device_name, entry.spec);
  }
  return specs;
}

std::string GpuCatalog::known_names() const {
  std::string names;
  for (const auto& [name, entry] : entries_) names += (names.empty() ? "" : ", ") + name;
  return names.empty() ? "(none)" : names;
}

}  // namespace warpsim::platform

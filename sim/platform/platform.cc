// load_platform: find the node file, resolve its GPUs, check both, apply --set overrides one by one and check again.
#include "platform.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "gpu_catalog.h"
#include "overrides.h"
#include "text_format_loader.h"
#include "validation.h"

namespace warpsim::platform {
namespace {

constexpr const char* kNodeExtension = ".textproto";

/// "h100-pcie" is a name; "nodes/h100-pcie.textproto" or "./x" are paths.
bool is_bare_name(const std::string& text) {
  return text.find('/') == std::string::npos && !text.ends_with(kNodeExtension);
}

std::string known_nodes(const std::filesystem::path& folder) {
  if (!std::filesystem::is_directory(folder)) return "(no nodes/ folder)";
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() == kNodeExtension) names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  std::string list;
  for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
  return list.empty() ? "(none)" : list;
}

std::filesystem::path node_file_for(const std::string& name_or_path, const std::filesystem::path& root) {
  if (!is_bare_name(name_or_path)) return name_or_path;
  const std::filesystem::path folder = root / "nodes";
  std::filesystem::path path = folder / (name_or_path + kNodeExtension);
  if (!std::filesystem::exists(path)) {
    throw PlatformError(path.string() + ": no such node file (known nodes: " + known_nodes(folder) + ")");
  }
  return path;
}

void throw_first(const std::vector<Issue>& issues, const TextFile& file) {
  if (!issues.empty()) throw PlatformError(file.error_at(issues.front().field, issues.front().problem));
}

/// The spec of each node GPU, from the catalog; each spec file is checked once, however many GPUs use it.
std::vector<GpuSpec> resolve_gpus(const NodeSpec& node, const TextFile& node_file, const GpuCatalog& catalog) {
  std::vector<GpuSpec> gpus;
  for (int i = 0; i < node.gpus_size(); ++i) {
    const CatalogEntry* entry = catalog.find(node.gpus(i).gpu());
    if (entry == nullptr) {
      throw PlatformError(node_file.error_at(
          {{"gpus", i}, {"gpu"}}, "unknown GPU \"" + node.gpus(i).gpu() + "\" (known: " + catalog.known_names() + ")"));
    }
    if (std::find_if(gpus.begin(), gpus.end(), [&](const GpuSpec& g) { return g.name() == entry->spec.name(); }) ==
        gpus.end()) {
      throw_first(check_gpu(entry->spec), entry->file);
    }
    gpus.push_back(entry->spec);
  }
  return gpus;
}

/// After an override nothing has a file line any more: the message names the override that broke the rule.
void check_after_override(const Platform& platform, const std::string& assignment) {
  auto fail = [&](const std::string& subject, const Issue& issue) {
    throw PlatformError("--set " + assignment + ": " + subject + issue.field.to_string() + ": " + issue.problem);
  };
  const std::vector<Issue> node_issues = check_node(platform.node);
  if (!node_issues.empty()) fail("node.", node_issues.front());
  for (std::size_t i = 0; i < platform.gpus.size(); ++i) {
    const std::vector<Issue> gpu_issues = check_gpu(platform.gpus[i]);
    if (!gpu_issues.empty()) fail("gpu" + std::to_string(i) + ".", gpu_issues.front());
  }
}

}  // namespace

std::filesystem::path default_platforms_root() {
  if (const char* from_env = std::getenv("WARPSIM_PLATFORMS"); from_env != nullptr && *from_env != '\0') {
    return from_env;
  }
  std::error_code error;
  const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    const std::filesystem::path installed = program.parent_path().parent_path() / "share" / "warpsim" / "platforms";
    if (std::filesystem::is_directory(installed / "nodes", error)) return installed;
  }
  return WARPSIM_PLATFORMS_DIR;
}

Platform load_platform(const std::string& node_file_or_name, const std::vector<std::string>& overrides,
                       const std::filesystem::path& platforms_root) {
  Platform platform;
  platform.node_file = node_file_for(node_file_or_name, platforms_root);
  const TextFile node_file = parse_text_file(platform.node_file, platform.node);
  throw_first(check_node(platform.node), node_file);
  // GPU specs live in gpus/ beside the node's own folder, so a node file in a scratch folder brings its own GPUs.
  const GpuCatalog catalog = GpuCatalog::load(platform.node_file.parent_path().parent_path() / "gpus");
  platform.gpus = resolve_gpus(platform.node, node_file, catalog);
  platform.gpus_by_device_name = catalog.by_device_name();
  for (const std::string& assignment : overrides) {
    apply_override(assignment, platform.node, platform.gpus);
    check_after_override(platform, assignment);
    platform.overrides.push_back(assignment);
  }
  return platform;
}

}  // namespace warpsim::platform

#include "calibrated_gpu.h"

#include <fmt/format.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "field_setter.h"
#include "validation.h"

namespace warpsim::calibrate {
namespace {

namespace pb = google::protobuf;

constexpr std::string_view kAppend = "[]";  // a measurement whose field ends so adds an element

bool appends(const std::string& field) { return field.ends_with(kAppend); }

// "sm.lanes.fp32" -> {{"sm"}, {"lanes"}, {"fp32"}}; `index` for the last step of a repeated field.
platform::FieldPath field_path(const std::string& dotted, int index = -1) {
  platform::FieldPath path;
  std::istringstream steps(dotted);
  for (std::string step; std::getline(steps, step, '.');) path.steps.push_back({step});
  if (!path.steps.empty()) path.steps.back().index = index;
  return path;
}

// The comment the base file wrote on the line of `field`, if any.
class BaseComments {
 public:
  explicit BaseComments(const platform::CatalogEntry& base) : base_(base) {
    std::ifstream in(base.file.path());
    for (std::string line; std::getline(in, line);) lines_.push_back(line);
  }

  std::string of(const std::string& dotted, int index = -1) const {
    const platform::FieldPath path = field_path(dotted, index);
    const std::string origin = fmt::format("FROM {} (not measured)", base_.spec.name());
    if (!base_.file.wrote(path)) return origin;
    const int line = base_.file.line_of(path);
    if (line < 0 || static_cast<std::size_t>(line) >= lines_.size()) return origin;
    const std::size_t hash = lines_[static_cast<std::size_t>(line)].find('#');
    if (hash == std::string::npos) return origin;
    std::string comment = lines_[static_cast<std::size_t>(line)].substr(hash + 1);
    comment.erase(0, comment.find_first_not_of(' '));
    return fmt::format("FROM {} (not measured): {}", base_.spec.name(), comment);
  }

 private:
  const platform::CatalogEntry& base_;
  std::vector<std::string> lines_;
};

void append_element(platform::GpuSpec& spec, const Measurement& m) {
  const std::string name = m.field.substr(0, m.field.size() - kAppend.size());
  const pb::FieldDescriptor* field = spec.GetDescriptor()->FindFieldByName(name);
  if (field == nullptr || !field->is_repeated() || field->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE)
    throw std::runtime_error(fmt::format("calibrate: {} is not a repeated message field of GpuSpec", name));
  pb::Message* element = spec.GetReflection()->AddMessage(&spec, field);
  if (!pb::TextFormat::ParseFromString(m.value, element))
    throw std::runtime_error(fmt::format("calibrate: {}: cannot parse '{}'", name, m.value));
}

// The singular message at a dotted path ("memory.dram_concurrency"), or nullptr when the path ends elsewhere (a
// scalar: platform::set_field's part).
pb::Message* singular_message(pb::Message& root, const std::string& dotted) {
  pb::Message* message = &root;
  const pb::FieldDescriptor* field = nullptr;
  std::istringstream steps(dotted);
  for (std::string step; std::getline(steps, step, '.');) {
    if (field != nullptr) message = message->GetReflection()->MutableMessage(message, field);
    field = message->GetDescriptor()->FindFieldByName(step);
    if (field == nullptr || field->is_repeated() ||
        (field->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE && steps.peek() != EOF))
      return nullptr;
  }
  if (field == nullptr || field->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) return nullptr;
  return message->GetReflection()->MutableMessage(message, field);
}

// Every set leaf field of `message` under `prefix` (dotted, no indices).
void leaf_fields(const pb::Message& message, const std::string& prefix, std::vector<std::string>& out) {
  std::vector<const pb::FieldDescriptor*> fields;
  message.GetReflection()->ListFields(message, &fields);
  for (const pb::FieldDescriptor* field : fields) {
    const std::string path = prefix.empty() ? field->name() : prefix + "." + field->name();
    if (field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE && !field->is_repeated())
      leaf_fields(message.GetReflection()->GetMessage(message, field), path, out);
    else
      out.push_back(path);
  }
}

// One measurement into the spec, its source into the comments.
void apply(const Measurement& m, CalibratedGpu& gpu) {
  if (appends(m.field)) {
    append_element(gpu.spec, m);
    if (m.field == "launch_fits[]") gpu.launch_fit_comments.push_back(m.source);
    return;
  }
  if (pb::Message* message = singular_message(gpu.spec, m.field)) {
    message->Clear();
    if (!pb::TextFormat::ParseFromString(m.value, message))
      throw std::runtime_error(fmt::format("calibrate: {}: cannot parse '{}'", m.field, m.value));
  } else {
    try {
      platform::set_field(gpu.spec, m.field, m.value);
    } catch (const std::invalid_argument& error) {
      throw std::runtime_error(fmt::format("calibrate: {} = {}: {}", m.field, m.value, error.what()));
    }
  }
  gpu.comments[m.field] = m.source;
}

// Every value no measurement set keeps the base file's comment; a measured message's fields say nothing (its line
// does).
void comment_the_base_values(const platform::CatalogEntry& base, const Measurements& measurements, CalibratedGpu& gpu) {
  auto inside_measured = [&](const std::string& path) {
    return std::any_of(measurements.begin(), measurements.end(),
                       [&](const Measurement& m) { return path.rfind(m.field + ".", 0) == 0; });
  };
  const BaseComments base_comments(base);
  std::vector<std::string> leaves;
  leaf_fields(gpu.spec, "", leaves);
  for (const std::string& path : leaves) {
    if (gpu.comments.count(path) == 0 && !inside_measured(path)) gpu.comments[path] = base_comments.of(path);
  }
}

void check(const platform::GpuSpec& spec) {
  const std::vector<platform::Issue> issues = platform::check_gpu(spec);
  if (!issues.empty())
    throw std::runtime_error(fmt::format("calibrate: the calibrated GPU breaks a rule: {}: {}",
                                         issues.front().field.to_string(), issues.front().problem));
}

}  // namespace

const platform::CatalogEntry& choose_base(const platform::GpuCatalog& catalog, const std::string& device_name,
                                          std::uint32_t major, std::uint32_t minor, const std::string& chosen) {
  if (!chosen.empty()) {
    if (const platform::CatalogEntry* entry = catalog.find(chosen)) return *entry;
    throw std::runtime_error(
        fmt::format("calibrate: no shipped GPU named '{}' for --base (known: {})", chosen, catalog.known_names()));
  }
  // The same GPU if it is shipped, else a real GPU (one that lists a CUDA name) of the same compute capability, else
  // the nearest minor version of the same major.
  auto rank = [&](const platform::GpuSpec& spec) {
    const auto& names = spec.device_names();
    const bool same_gpu = std::find(names.begin(), names.end(), device_name) != names.end();
    return std::tuple{same_gpu, spec.compute_capability_minor() == minor, !names.empty(),
                      spec.compute_capability_minor()};
  };
  const platform::CatalogEntry* best = nullptr;
  for (const auto& [name, entry] : catalog.entries()) {
    if (entry.spec.compute_capability_major() != major) continue;
    if (best == nullptr || rank(entry.spec) > rank(best->spec)) best = &entry;
  }
  if (best == nullptr)
    throw std::runtime_error(fmt::format(
        "calibrate: no shipped GPU of compute capability {}.x to take the unmeasured values from (known: {}); name "
        "one with --base",
        major, catalog.known_names()));
  return *best;
}

CalibratedGpu calibrated_gpu(const platform::CatalogEntry& base, const Measurements& measurements,
                             const std::string& name, const std::string& device_name) {
  CalibratedGpu gpu;
  gpu.spec = base.spec;
  gpu.spec.set_name(name);
  gpu.spec.clear_device_names();
  gpu.spec.add_device_names(device_name);
  gpu.comments["name"] = "warpsim's name for it: node files refer to it";
  gpu.comments["device_names"] = "the name the CUDA driver reports";
  const bool fits_measured = std::any_of(measurements.begin(), measurements.end(),
                                         [](const Measurement& m) { return m.field == "launch_fits[]"; });
  if (fits_measured) gpu.spec.clear_launch_fits();
  for (const Measurement& m : measurements) apply(m, gpu);
  comment_the_base_values(base, measurements, gpu);
  if (!fits_measured) {
    const BaseComments base_comments(base);
    for (int i = 0; i < gpu.spec.launch_fits_size(); ++i)
      gpu.launch_fit_comments.push_back(base_comments.of("launch_fits", i));
  }
  check(gpu.spec);
  return gpu;
}
}  // namespace warpsim::calibrate

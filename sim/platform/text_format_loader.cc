#include "text_format_loader.h"

#include <fstream>
#include <sstream>
#include <utility>

#include <google/protobuf/io/tokenizer.h>

#include "platform.h"

namespace warpsim::platform {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::TextFormat;

/// Keeps the parser's first error: later ones are usually consequences of it.
class FirstErrorCollector : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber /*column*/, const std::string& message) override {
    if (!has_error_) {
      has_error_ = true;
      line_ = line;
      message_ = message;
    }
  }

  [[nodiscard]] std::string describe(const std::filesystem::path& path) const {
    std::string where = path.string();
    if (line_ >= 0) where += ":" + std::to_string(line_ + 1);
    return where + ": " + message_;
  }

 private:
  bool has_error_ = false;
  int line_ = -1;
  std::string message_;
};

std::string read_whole_file(const std::filesystem::path& path) {
  // A FIFO or a device would block or never end: only a regular file is a platform file.
  std::error_code error;
  if (std::filesystem::exists(path, error) && !std::filesystem::is_regular_file(path, error))
    throw PlatformError(path.string() + ": is not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const char* why = std::filesystem::exists(path) ? "cannot be read" : "no such file";
    throw PlatformError(path.string() + ": " + why);
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The ParseInfoTree index for a step: -1 for singular fields, the element (0 when unspecified) for repeated ones.
int tree_index(const FieldDescriptor& field, int index) {
  if (!field.is_repeated()) return -1;
  return index < 0 ? 0 : index;
}

}  // namespace

TextFile::TextFile(std::filesystem::path path, const Descriptor* type,
                   std::shared_ptr<const TextFormat::ParseInfoTree> locations)
    : path_(std::move(path)), type_(type), locations_(std::move(locations)) {}

std::pair<int, std::size_t> TextFile::deepest_written(const FieldPath& field) const {
  int line = -1;
  std::size_t depth = 0;
  const TextFormat::ParseInfoTree* tree = locations_.get();
  const Descriptor* type = type_;
  for (const FieldStep& step : field.steps) {
    const FieldDescriptor* descriptor = type == nullptr ? nullptr : type->FindFieldByName(step.field);
    if (tree == nullptr || descriptor == nullptr) break;
    const int index = tree_index(*descriptor, step.index);
    const int step_line = tree->GetLocation(descriptor, index).line;
    if (step_line < 0) break;
    line = step_line;
    ++depth;
    if (descriptor->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) break;
    tree = tree->GetTreeForNested(descriptor, index);
    type = descriptor->message_type();
  }
  return {line, depth};
}

int TextFile::line_of(const FieldPath& field) const { return deepest_written(field).first; }

bool TextFile::wrote(const FieldPath& field) const { return deepest_written(field).second == field.steps.size(); }

std::string TextFile::error_at(const FieldPath& field, const std::string& problem) const {
  std::string where = path_.string();
  const int line = line_of(field);
  if (line >= 0) where += ":" + std::to_string(line + 1);
  return where + ": " + field.to_string() + ": " + problem;
}

TextFile parse_text_file(const std::filesystem::path& path, google::protobuf::Message& message) {
  const std::string text = read_whole_file(path);
  auto locations = std::make_shared<TextFormat::ParseInfoTree>();
  FirstErrorCollector errors;
  TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  parser.WriteLocationsTo(locations.get());
  if (!parser.ParseFromString(text, &message)) throw PlatformError(errors.describe(path));
  return TextFile(path, message.GetDescriptor(), std::move(locations));
}

}  // namespace warpsim::platform

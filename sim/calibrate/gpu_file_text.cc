#include "gpu_file_text.h"

#include <google/protobuf/text_format.h>

#include <algorithm>
#include <vector>

namespace warpsim::calibrate {
namespace {

namespace pb = google::protobuf;

constexpr std::size_t kCommentColumn = 46;  // where the shipped files put their comments

std::string with_comment(std::string line, const std::string& comment) {
  if (comment.empty()) return line;
  line.resize(std::max(line.size() + 1, kCommentColumn), ' ');
  return line + "# " + comment;
}

std::string one_line(const pb::Message& message) {
  pb::TextFormat::Printer printer;
  printer.SetSingleLineMode(true);
  std::string text;
  printer.PrintToString(message, &text);
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

// A repeated scalar in the text format's list form: "[1, 2, 4, 8]".
std::string scalar_list(const pb::Message& message, const pb::FieldDescriptor* field) {
  std::string list;
  for (int i = 0; i < message.GetReflection()->FieldSize(message, field); ++i) {
    std::string value;
    pb::TextFormat::PrintFieldValueToString(message, field, i, &value);
    list += (i == 0 ? "" : ", ") + value;
  }
  return "[" + list + "]";
}

void print_message(const pb::Message& message, const CalibratedGpu& gpu, const std::string& prefix,
                   const std::string& indent, std::string& out) {
  const pb::Reflection& reflection = *message.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  reflection.ListFields(message, &fields);
  for (const pb::FieldDescriptor* field : fields) {
    const std::string path = prefix.empty() ? field->name() : prefix + "." + field->name();
    const auto comment = gpu.comments.find(path);
    const std::string& said = comment == gpu.comments.end() ? std::string() : comment->second;
    const bool message_field = field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE;
    if (message_field && !field->is_repeated()) {
      out += with_comment(indent + field->name() + " {", said) + '\n';
      print_message(reflection.GetMessage(message, field), gpu, path, indent + "  ", out);
      out += indent + "}\n";
      continue;
    }
    if (!message_field && field->is_repeated()) {
      out += with_comment(indent + field->name() + ": " + scalar_list(message, field), said) + '\n';
      continue;
    }
    const int count = field->is_repeated() ? reflection.FieldSize(message, field) : 1;
    for (int i = 0; i < count; ++i) {
      std::string value;
      if (message_field) {
        value = "{ " + one_line(reflection.GetRepeatedMessage(message, field, i)) + " }";
      } else {
        pb::TextFormat::PrintFieldValueToString(message, field, field->is_repeated() ? i : -1, &value);
      }
      const bool own_comment = path == "launch_fits" && static_cast<std::size_t>(i) < gpu.launch_fit_comments.size();
      const std::string separator = message_field ? " " : ": ";
      out += with_comment(indent + field->name() + separator + value,
                          own_comment ? gpu.launch_fit_comments[static_cast<std::size_t>(i)] : said) +
             '\n';
    }
  }
}

}  // namespace

std::string gpu_file_text(const CalibratedGpu& gpu) {
  std::string out;
  for (const std::string& line : gpu.header) out += "# " + line + '\n';
  print_message(gpu.spec, gpu, "", "", out);
  return out;
}

}  // namespace warpsim::calibrate

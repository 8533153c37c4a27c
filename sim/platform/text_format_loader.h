#pragma once
// Reads one protobuf text-format file into a message and remembers where each field was written, so that checks run
// after parsing can still name the file and line of the value they reject.
#include <filesystem>
#include <memory>
#include <string>

#include <google/protobuf/message.h>
#include <google/protobuf/text_format.h>

#include "field_path.h"

namespace warpsim::platform {

/// A parsed text-format file: its path and the line of every field it wrote.
class TextFile {
 public:
  TextFile(std::filesystem::path path, const google::protobuf::Descriptor* type,
           std::shared_ptr<const google::protobuf::TextFormat::ParseInfoTree> locations);

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

  /// 0-based line where `field` was written; for a field the file left out, the line of its nearest written
  /// enclosing message; -1 when none of the path was written.
  [[nodiscard]] int line_of(const FieldPath& field) const;

  /// Whether the file wrote `field` itself (not only an enclosing message).
  [[nodiscard]] bool wrote(const FieldPath& field) const;

  /// "FILE:LINE: FIELD: problem", or "FILE: FIELD: problem" when no line is known.
  [[nodiscard]] std::string error_at(const FieldPath& field, const std::string& problem) const;

 private:
  /// Line of the deepest written step and how many steps deep it is.
  [[nodiscard]] std::pair<int, std::size_t> deepest_written(const FieldPath& field) const;

  std::filesystem::path path_;
  const google::protobuf::Descriptor* type_;
  // ParseInfoTree cannot be copied; sharing it keeps TextFile a value.
  std::shared_ptr<const google::protobuf::TextFormat::ParseInfoTree> locations_;
};

/// Parses `path` into `message`, checked against its schema (unknown fields are errors).
/// Throws PlatformError "FILE:LINE: problem" on a syntax error, "FILE: ..." when the file cannot be read.
TextFile parse_text_file(const std::filesystem::path& path, google::protobuf::Message& message);

}  // namespace warpsim::platform

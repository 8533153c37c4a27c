#pragma once
// A scratch platforms root (ROOT/gpus, ROOT/nodes) for loader tests, removed when the test ends.
#include <filesystem>
#include <string>

#include "platform.pb.h"

namespace warpsim::platform::testing {

class TempPlatformDir {
 public:
  TempPlatformDir();
  ~TempPlatformDir();
  TempPlatformDir(const TempPlatformDir&) = delete;
  TempPlatformDir& operator=(const TempPlatformDir&) = delete;

  [[nodiscard]] const std::filesystem::path& root() const { return root_; }

  /// Writes ROOT/gpus/FILE.textproto (or ROOT/nodes/...) with `text` and returns its path.
  std::filesystem::path write_gpu(const std::string& file, const std::string& text) const;
  std::filesystem::path write_node(const std::string& file, const std::string& text) const;

 private:
  std::filesystem::path root_;
};

/// The message in protobuf text format, one field per line, as a file would hold it.
std::string to_text(const google::protobuf::Message& message);

/// The 1-based number of the first line of `text` containing `needle` (0 when none): tests compute the line they
/// expect an error to name instead of hard-coding it.
int line_containing(const std::string& text, const std::string& needle);

/// `text` with the first occurrence of `from` replaced by `to`.
std::string replace_once(std::string text, const std::string& from, const std::string& to);

}  // namespace warpsim::platform::testing

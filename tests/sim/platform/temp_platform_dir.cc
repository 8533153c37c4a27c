#include "temp_platform_dir.h"

#include <fstream>
#include <random>
#include <sstream>

#include <google/protobuf/text_format.h>

namespace warpsim::platform::testing {
namespace {

std::filesystem::path write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TempPlatformDir::TempPlatformDir() {
  std::random_device seed;
  root_ = std::filesystem::temp_directory_path() / ("warpsim-platform-test-" + std::to_string(seed()));
  std::filesystem::create_directories(root_ / "gpus");
  std::filesystem::create_directories(root_ / "nodes");
}

TempPlatformDir::~TempPlatformDir() {
  std::error_code ignored;
  std::filesystem::remove_all(root_, ignored);
}

std::filesystem::path TempPlatformDir::write_gpu(const std::string& file, const std::string& text) const {
  return write_file(root_ / "gpus" / (file + ".textproto"), text);
}

std::filesystem::path TempPlatformDir::write_node(const std::string& file, const std::string& text) const {
  return write_file(root_ / "nodes" / (file + ".textproto"), text);
}

std::string to_text(const google::protobuf::Message& message) {
  std::string text;
  google::protobuf::TextFormat::PrintToString(message, &text);
  return text;
}

int line_containing(const std::string& text, const std::string& needle) {
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    if (line.find(needle) != std::string::npos) return number;
  }
  return 0;
}

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

}  // namespace warpsim::platform::testing

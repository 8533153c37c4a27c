#include "cupti/process_info.h"

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>

#include "warpsim/version.h"

namespace warpsim::tracer {
namespace {

std::vector<std::string> command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> args;
  std::size_t start = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i] != '\0') continue;
    args.push_back(all.substr(start, i - start));
    start = i + 1;
  }
  return args;
}

}  // namespace

TraceHeader process_header(TraceMode mode) {
  TraceHeader header;
  header.set_tool_version(kVersion);
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) header.set_capture_host(host);
  for (std::string& arg : command_line()) header.add_command_line(std::move(arg));
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  header.set_start_time_unix_ns(static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count()));
  header.set_process_id(static_cast<std::uint32_t>(getpid()));
  header.set_mode(capture_mode(mode));
  return header;
}

}  // namespace warpsim::tracer

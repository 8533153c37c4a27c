#pragma once
// A full disk for one test: writes beyond `bytes` of any file fail with EFBIG (RLIMIT_FSIZE, with SIGXFSZ ignored so
// that the write fails instead of the process dying), as they fail with ENOSPC on a full disk; restored on
// destruction. And the entries of a directory, to check that no temporary file was left behind.
#include <sys/resource.h>

#include <csignal>
#include <cstddef>
#include <filesystem>
#include <iterator>

namespace warpsim::testing {

class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) : old_handler_(std::signal(SIGXFSZ, SIG_IGN)) {
    getrlimit(RLIMIT_FSIZE, &old_limit_);
    rlimit limit = old_limit_;
    limit.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &old_limit_);
    std::signal(SIGXFSZ, old_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  void (*old_handler_)(int);
  rlimit old_limit_{};
};

inline std::size_t files_in(const std::filesystem::path& directory) {
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(directory), {}));
}

}  // namespace warpsim::testing

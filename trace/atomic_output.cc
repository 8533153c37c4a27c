#include "atomic_output.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <random>
#include <streambuf>
#include <string_view>
#include <system_error>
#include <utility>

namespace warpsim {
namespace {

std::string errno_text(int error) { return std::strerror(error); }

std::filesystem::path directory_of(const std::filesystem::path& target) {
  return target.parent_path().empty() ? "." : target.parent_path();
}

// The start of the temporary names process `pid` gives files for `target`: the target's own name (so a leftover says
// what it was for; its first 128 bytes, so that a long name still leaves room within a file name's 255) and the
// process.
std::string temporary_prefix(const std::filesystem::path& target, long pid) {
  constexpr std::size_t kNameBytesKept = 128;
  return "." + target.filename().string().substr(0, kNameBytesKept) + ".warpsim-" + std::to_string(pid) + "-";
}

constexpr std::string_view kTemporarySuffix = ".tmp";

// A name no other process picks: the prefix, a counter and a random number. O_EXCL refuses it anyway if it exists.
std::filesystem::path temporary_beside(const std::filesystem::path& target) {
  static std::atomic<unsigned> counter{0};
  static const unsigned seed = std::random_device{}();
  return directory_of(target) / (temporary_prefix(target, ::getpid()) + std::to_string(counter++) + "-" +
                                 std::to_string(seed) + std::string(kTemporarySuffix));
}

// Only a regular file may be replaced: a directory cannot be, and a FIFO or a device is not a file to replace.
void check_target(const std::filesystem::path& target) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(target, error);
  if (error || !std::filesystem::exists(status)) return;
  if (std::filesystem::is_directory(status)) throw OutputError(target, "is a directory");
  if (!std::filesystem::is_regular_file(status)) throw OutputError(target, "is not a regular file");
}

}  // namespace

OutputError::OutputError(const std::filesystem::path& target, const std::string& problem)
    : std::runtime_error(target.string() + ": " + problem), problem_(problem) {}

class AtomicOutputFile::Buffer : public std::streambuf {
 public:
  explicit Buffer(AtomicOutputFile& file) : file_(file) { setp(bytes_, bytes_ + sizeof bytes_); }

  // The first error, kept for commit() to throw: a stream reports failure by its state, not by throwing.
  const std::string& error() const { return error_; }

  int sync() override { return drain() ? 0 : -1; }

 protected:
  int_type overflow(int_type ch) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }

 private:
  bool drain() {
    if (!error_.empty()) return false;
    const std::size_t size = static_cast<std::size_t>(pptr() - pbase());
    try {
      file_.write_all(pbase(), size);
    } catch (const OutputError& failure) {
      error_ = failure.problem();
      return false;
    }
    setp(bytes_, bytes_ + sizeof bytes_);
    return true;
  }

  AtomicOutputFile& file_;
  char bytes_[1 << 16];
  std::string error_;
};

AtomicOutputFile::AtomicOutputFile(std::filesystem::path target) : target_(std::move(target)) {
  check_target(target_);
  temporary_ = temporary_beside(target_);
  // open() takes the umask off 0666, as for any file a program creates.
  fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd_ < 0) throw OutputError(target_, "cannot create a file beside it: " + errno_text(errno));
}

AtomicOutputFile::~AtomicOutputFile() {
  if (committed_) return;
  close_quietly();
  ::unlink(temporary_.c_str());
}

void AtomicOutputFile::write(const char* data, std::size_t size) {
  if (stream_) {  // what the stream holds goes first
    stream_->flush();
    if (!buffer_->error().empty()) fail(buffer_->error());
  }
  write_all(data, size);
}

void AtomicOutputFile::write_all(const char* data, std::size_t size) {
  if (fd_ < 0) throw OutputError(target_, "write after the file was closed");
  std::size_t written = 0;
  while (written < size) {
    const ssize_t n = ::write(fd_, data + written, size - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("write failed: " + errno_text(errno));
    if (n == 0) fail("write failed: no progress");
    written += static_cast<std::size_t>(n);
  }
}

std::ostream& AtomicOutputFile::stream() {
  if (!stream_) {
    buffer_ = std::make_unique<Buffer>(*this);
    stream_ = std::make_unique<std::ostream>(buffer_.get());
  }
  return *stream_;
}

void AtomicOutputFile::commit() {
  if (committed_) return;
  if (stream_) {
    stream_->flush();
    if (!buffer_->error().empty()) fail(buffer_->error());
    if (!*stream_) fail("write failed");
  }
  if (fd_ < 0) throw OutputError(target_, "already failed");
  if (::fsync(fd_) != 0) fail("sync failed: " + errno_text(errno));
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) fail("close failed: " + errno_text(errno));
  check_target(target_);  // made a directory meanwhile: rename would fail anyway, say why
  if (::rename(temporary_.c_str(), target_.c_str()) != 0) fail("cannot replace it: " + errno_text(errno));
  committed_ = true;
}

void AtomicOutputFile::fail(const std::string& problem) {
  close_quietly();
  throw OutputError(target_, problem);
}

void AtomicOutputFile::close_quietly() {
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));
}

std::vector<std::filesystem::path> leftover_temporaries(const std::filesystem::path& target, long pid) {
  const std::string prefix = temporary_prefix(target, pid);
  std::vector<std::pair<std::filesystem::file_time_type, std::filesystem::path>> found;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory_of(target), error)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with(prefix) && name.ends_with(kTemporarySuffix) && entry.is_regular_file(error))
      found.emplace_back(entry.last_write_time(error), entry.path());
  }
  std::sort(found.begin(), found.end());
  std::vector<std::filesystem::path> paths;
  for (auto& [when, path] : found) paths.push_back(std::move(path));
  return paths;
}

void refuse_outputs_over_inputs(const std::vector<std::filesystem::path>& outputs,
                                const std::vector<std::filesystem::path>& inputs) {
  const auto same_file = [](const std::filesystem::path& a, const std::filesystem::path& b) {
    std::error_code error;
    const bool same = std::filesystem::equivalent(a, b, error);
    return !error && same;
  };
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    for (const std::filesystem::path& input : inputs) {
      if (same_file(outputs[o], input))
        throw OutputError(outputs[o], "is an input of this command (" + input.string() + "): refusing to overwrite it");
    }
    for (std::size_t other = o + 1; other < outputs.size(); ++other) {
      if (outputs[o] == outputs[other] || same_file(outputs[o], outputs[other]))
        throw OutputError(outputs[o], "is named for two outputs of this command");
    }
  }
}

}  // namespace warpsim

#pragma once
/// @brief Outputs that appear whole or not at all, and never over one of the command's inputs.
///
/// Every file a command writes (a trace, a timeline, a CSV) goes to a new file beside its target under a unique
/// hidden name, created with O_EXCL and O_NOFOLLOW (no file of another user's making is followed or reused) and mode
/// 0666 less the umask, and becomes the target only when complete: written out, synced and renamed over it in one
/// step. A failure at any point (a full disk, an exception) leaves the target as it was and removes the temporary
/// file. SQLite's and protobuf's rule: no partial file ever replaces a good one.

#include <cstddef>
#include <filesystem>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace warpsim {

/// What went wrong with an output, naming its target: "PATH: problem".
class OutputError : public std::runtime_error {
 public:
  OutputError(const std::filesystem::path& target, const std::string& problem);
  const std::string& problem() const { return problem_; }

 private:
  std::string problem_;
};

/// One output file, written beside `target` and made the target by commit().
class AtomicOutputFile {
 public:
  /// Creates the temporary file in the target's directory. Throws OutputError where the target is a directory or
  /// another non-regular file (a FIFO, a device) or the directory cannot take a new file.
  explicit AtomicOutputFile(std::filesystem::path target);
  /// Without commit(): removes the temporary file; the target is untouched.
  ~AtomicOutputFile();
  AtomicOutputFile(const AtomicOutputFile&) = delete;
  AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;

  /// Writes all of `size` bytes, after what the stream holds, or throws OutputError (ENOSPC, EFBIG, EIO...).
  void write(const char* data, std::size_t size);
  /// The same file as a stream, for formatters that write to one; its first write error is thrown by commit().
  std::ostream& stream();
  /// Writes out what the stream holds, syncs the file and renames it over the target. Throws OutputError (the
  /// target then untouched, the temporary file removed).
  void commit();

  const std::filesystem::path& target() const { return target_; }
  /// Where the bytes are until commit(): left behind only if the process dies first.
  const std::filesystem::path& temporary() const { return temporary_; }

 private:
  class Buffer;  // the stream's buffer over the file

  void write_all(const char* data, std::size_t size);
  void fail(const std::string& problem);
  void close_quietly();

  std::filesystem::path target_;
  std::filesystem::path temporary_;
  int fd_ = -1;
  bool committed_ = false;
  std::unique_ptr<Buffer> buffer_;
  std::unique_ptr<std::ostream> stream_;
};

/// The temporary files that process `pid` left beside `target` (it died before commit(), e.g. a traced application
/// that crashed: what its tracer had flushed is there), oldest first.
std::vector<std::filesystem::path> leftover_temporaries(const std::filesystem::path& target, long pid);

/// Throws OutputError before anything is opened when an output names the same file as an input (the same device and
/// inode: another spelling, a hard link or a symbolic link included) or as another output; a path that does not
/// exist yet is none of them.
void refuse_outputs_over_inputs(const std::vector<std::filesystem::path>& outputs,
                                const std::vector<std::filesystem::path>& inputs);

}  // namespace warpsim

#pragma once
/// @brief Writes a .wstrace file: prelude and header at once, events buffered, trailer on close().
///
/// The file appears whole or not at all (atomic_output.h): bytes go to a temporary file beside the target, which
/// close() completes with the trailer and renames over the target. Bytes reach the operating system on flush(), when
/// the buffer fills, and on close(); a process killed between two flushes leaves a readable trace up to the last one
/// in the temporary file (`temporary_path()`). A writer destroyed without close() (an error, an exception) removes it
/// and leaves the target as it was. Not thread-safe: callers that write from several threads serialize (the tracer
/// owns one lock).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "atomic_output.h"
#include "trace.pb.h"
#include "trace_validation.h"

namespace warpsim {

class TraceWriter {
 public:
  static constexpr std::size_t kDefaultBufferBytes = std::size_t{1} << 20;

  /// Starts the trace that close() makes `path` and writes the prelude and `header` (its schema_version is set to the
  /// format version). Throws TraceError if the file cannot be created or the header is inconsistent.
  TraceWriter(const std::filesystem::path& path, TraceHeader header, std::size_t buffer_bytes = kDefaultBufferBytes);
  /// Without close(): removes what was written; `path` keeps what it held.
  ~TraceWriter();

  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  /// Appends one event. Throws TraceError if it names a device the header lacks, or on a write failure.
  void write(const Event& event);
  /// Hands every buffered byte to the operating system (no fsync).
  void flush();
  /// Flushes, writes the trailer, syncs the file and renames it to the path. Idempotent; after a failure the path
  /// keeps what it held.
  void close();

  std::uint64_t events_written() const { return events_written_; }
  /// Bytes written so far, buffered ones included.
  std::uint64_t bytes_written() const { return file_offset_ + buffer_.size(); }
  /// Where the trace is until close() renames it.
  std::filesystem::path temporary_path() const { return file_ ? file_->temporary() : std::filesystem::path(); }

 private:
  void append_record(const google::protobuf::MessageLite& body, std::uint32_t field_number);
  void write_to_file(const char* data, std::size_t size);
  [[noreturn]] void fail(const std::string& problem) const;

  std::string path_;
  std::unique_ptr<AtomicOutputFile> file_;  // null once closed
  TraceHeader header_;
  KnownDevices devices_;
  std::string buffer_;
  std::size_t buffer_limit_;
  std::uint64_t file_offset_ = 0;
  std::uint64_t events_written_ = 0;
};

}  // namespace warpsim

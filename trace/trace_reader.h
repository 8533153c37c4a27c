#pragma once
/// @brief Streams a .wstrace file: the header at construction, then one event per next() call.
///
/// Memory stays bounded by the largest record (at most trace_format::kMaxRecordBytes) whatever the file size.
/// Every problem throws TraceError naming the file, the byte offset and what is wrong. A file that ends early
/// without its trailer (an application killed while recording) is not an error: next() returns every complete event
/// and then truncation() says where and why reading stopped.

#include <cstdint>
#include <filesystem>
#include <istream>
#include <memory>
#include <optional>
#include <string>

#include <google/protobuf/stubs/logging.h>

#include "trace.pb.h"
#include "trace_format.h"
#include "trace_validation.h"

namespace warpsim {

/// Where and why a trace without trailer stopped.
struct Truncation {
  std::uint64_t offset = 0;  ///< first byte not part of a complete record
  std::string reason;
};

class TraceReader {
 public:
  /// Opens `path` and reads its header. Throws TraceError if the file is missing, not a trace, of a newer format
  /// version, or has no valid header.
  explicit TraceReader(const std::filesystem::path& path);
  /// Reads a trace of `size` bytes from `stream`, named `name` in messages (tests and the fuzzer read from memory).
  TraceReader(std::unique_ptr<std::istream> stream, std::string name, std::uint64_t size);

  const TraceHeader& header() const { return header_; }
  std::uint32_t format_version() const { return format_version_; }
  /// Whether each record carries a checksum (format 2 on): without, a changed byte inside a record may go unnoticed.
  bool has_checksums() const { return format_version_ >= trace_format::kFirstChecksummedVersion; }
  const std::string& name() const { return name_; }

  /// Reads the next event into `event`. Returns false after the last one. Throws TraceError on corruption.
  bool next(Event& event);

  /// Byte offset of the record holding the event next() returned last (for messages about that event).
  std::uint64_t event_offset() const { return event_offset_; }
  std::uint64_t events_read() const { return events_read_; }
  /// Set once next() has returned false on a trace that was not closed cleanly.
  const std::optional<Truncation>& truncation() const { return truncation_; }
  /// One line for users: "FILE: offset N: truncated trace: REASON; M complete events read". Empty if not truncated.
  std::string truncation_warning() const;

 private:
  void read_prelude();
  void find_trailer();
  void read_header();
  bool read_record();
  void check_checksum();
  bool read_varint(std::uint64_t& value);
  [[noreturn]] void fail_record(const std::string& reason);
  void refuse_junk_after_trailer(std::uint64_t at);
  bool cut_short(std::uint64_t offset, const std::string& reason);
  bool finish();
  void read_bytes(char* data, std::uint64_t size, std::uint64_t offset);
  void seek(std::uint64_t offset);
  [[noreturn]] void fail(std::uint64_t offset, const std::string& problem) const;

  std::unique_ptr<std::istream> stream_;
  std::string name_;
  std::uint64_t size_ = 0;
  std::uint32_t format_version_ = 0;
  std::uint64_t records_end_ = 0;                     // where the records stop: the trailer or the end of the file
  std::optional<std::uint64_t> trailer_event_count_;  // set when the trace was closed cleanly
  std::uint64_t offset_ = 0;                          // next byte to read
  std::uint64_t record_offset_ = 0;                   // start of the record read last
  std::uint64_t event_offset_ = 0;
  std::uint64_t events_read_ = 0;
  std::string record_bytes_;  // reused: bounded by the largest record
  Record record_;
  // A failed parse is reported once, as one line: protobuf's own log is kept off stderr while the reader lives (a
  // silencer per record locked a global mutex twice a record).
  std::unique_ptr<google::protobuf::LogSilencer> silence_protobuf_log_ =
      std::make_unique<google::protobuf::LogSilencer>();
  TraceHeader header_;
  std::optional<KnownDevices> devices_;
  std::optional<Truncation> truncation_;
  bool finished_ = false;
};

}  // namespace warpsim

#include "trace_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <utility>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include "trace_error.h"
#include "trace_format.h"

namespace warpsim {
namespace {

using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedOutputStream;

void append_varint(std::string& out, std::uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

void append_le(std::string& out, std::uint64_t value, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

TraceHeader with_schema_version(TraceHeader header) {
  header.set_schema_version(trace_format::kFormatVersion);
  return header;
}

}  // namespace

TraceWriter::TraceWriter(const std::filesystem::path& path, TraceHeader header, std::size_t buffer_bytes)
    : path_(path.string()),
      header_(with_schema_version(std::move(header))),
      devices_(header_),
      buffer_limit_(buffer_bytes) {
  if (auto problem = find_header_problem(header_)) throw TraceError(path_, std::nullopt, *problem);
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw TraceError(path_, std::nullopt, std::string("cannot create: ") + std::strerror(errno));
  buffer_.reserve(buffer_limit_);
  buffer_.append(trace_format::kMagic);
  append_le(buffer_, trace_format::kFormatVersion, sizeof(std::uint32_t));
  append_record(header_, Record::kHeaderFieldNumber);
}

TraceWriter::~TraceWriter() {
  try {
    close();
  } catch (const TraceError&) {  // NOLINT(bugprone-empty-catch): documented; close() reports to callers who ask
  }
}

void TraceWriter::write(const Event& event) {
  if (fd_ < 0) fail("write after close");
  if (auto problem = find_event_problem(event, devices_))
    fail("refusing to write it: a " + event_kind_name(event) + " event " + *problem);
  append_record(event, Record::kEventFieldNumber);
  ++events_written_;
}

// Writes the bytes of a Record whose oneof holds `body`, without copying `body` into a Record first:
// varint(record length), tag of the oneof field, varint(body length), body.
void TraceWriter::append_record(const google::protobuf::MessageLite& body, std::uint32_t field_number) {
  const std::size_t body_size = body.ByteSizeLong();
  const std::uint32_t tag =
      WireFormatLite::MakeTag(static_cast<int>(field_number), WireFormatLite::WIRETYPE_LENGTH_DELIMITED);
  const std::size_t record_size =
      CodedOutputStream::VarintSize32(tag) + CodedOutputStream::VarintSize64(body_size) + body_size;
  if (record_size > trace_format::kMaxRecordBytes)
    fail("a record of " + std::to_string(record_size) + " bytes exceeds the format's limit");
  append_varint(buffer_, record_size);
  append_varint(buffer_, tag);
  append_varint(buffer_, body_size);
  const std::size_t at = buffer_.size();
  buffer_.resize(at + body_size);
  body.SerializeWithCachedSizesToArray(reinterpret_cast<std::uint8_t*>(buffer_.data() + at));
  if (buffer_.size() >= buffer_limit_) flush();
}

void TraceWriter::flush() {
  if (fd_ < 0 || buffer_.empty()) return;
  write_to_file(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void TraceWriter::close() {
  if (fd_ < 0) return;
  buffer_.append(trace_format::kTrailerMagic);
  append_le(buffer_, events_written_, sizeof(std::uint64_t));
  // The file is closed whatever happens, so that a failed close() is not retried (and its trailer appended twice)
  // by the destructor.
  std::optional<TraceError> failure;
  try {
    flush();
  } catch (const TraceError& error) {
    failure = error;
  }
  buffer_.clear();
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0 && !failure)
    failure = TraceError(path_, file_offset_, std::string("close failed: ") + std::strerror(errno));
  if (failure) throw *failure;
}

void TraceWriter::write_to_file(const char* data, std::size_t size) {
  std::uint64_t written = 0;
  while (written < size) {
    const ssize_t n = ::write(fd_, data + written, size - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw TraceError(path_, file_offset_ + written, std::string("write failed: ") + std::strerror(errno));
    written += static_cast<std::uint64_t>(n);
  }
  file_offset_ += written;
}

void TraceWriter::fail(const std::string& problem) const { throw TraceError(path_, bytes_written(), problem); }

}  // namespace warpsim

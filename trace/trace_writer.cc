#include "trace_writer.h"

#include <optional>
#include <string_view>
#include <utility>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include "record_checksum.h"
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
  try {
    file_ = std::make_unique<AtomicOutputFile>(path);
  } catch (const OutputError& error) {
    throw TraceError(path_, std::nullopt, "cannot create: " + error.problem());
  }
  buffer_.reserve(buffer_limit_);
  buffer_.append(trace_format::kMagic);
  append_le(buffer_, trace_format::kFormatVersion, sizeof(std::uint32_t));
  append_record(header_, Record::kHeaderFieldNumber);
}

TraceWriter::~TraceWriter() = default;

void TraceWriter::write(const Event& event) {
  if (!file_) fail("write after close");
  if (auto problem = find_event_problem(event, devices_))
    fail("refusing to write it: a " + event_kind_name(event) + " event " + *problem);
  append_record(event, Record::kEventFieldNumber);
  ++events_written_;
}

// Writes the bytes of a Record whose oneof holds `body`, without copying `body` into a Record first:
// varint(record length), tag of the oneof field, varint(body length), body, checksum of the record's bytes.
void TraceWriter::append_record(const google::protobuf::MessageLite& body, std::uint32_t field_number) {
  const std::size_t body_size = body.ByteSizeLong();
  const std::uint32_t tag =
      WireFormatLite::MakeTag(static_cast<int>(field_number), WireFormatLite::WIRETYPE_LENGTH_DELIMITED);
  const std::size_t record_size =
      CodedOutputStream::VarintSize32(tag) + CodedOutputStream::VarintSize64(body_size) + body_size;
  if (record_size > trace_format::kMaxRecordBytes)
    fail("a record of " + std::to_string(record_size) + " bytes exceeds the format's limit");
  append_varint(buffer_, record_size);
  const std::size_t record_at = buffer_.size();
  append_varint(buffer_, tag);
  append_varint(buffer_, body_size);
  const std::size_t body_at = buffer_.size();
  buffer_.resize(body_at + body_size);
  body.SerializeWithCachedSizesToArray(reinterpret_cast<std::uint8_t*>(buffer_.data() + body_at));
  append_le(buffer_, record_checksum(std::string_view(buffer_).substr(record_at)), trace_format::kChecksumBytes);
  if (buffer_.size() >= buffer_limit_) flush();
}

void TraceWriter::flush() {
  if (!file_ || buffer_.empty()) return;
  write_to_file(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void TraceWriter::close() {
  if (!file_) return;
  buffer_.append(trace_format::kTrailerMagic);
  append_le(buffer_, events_written_, sizeof(std::uint64_t));
  // The writer is closed whatever happens, so that a failed close() is not retried (and its trailer appended twice);
  // a failure removes the temporary file.
  const std::unique_ptr<AtomicOutputFile> file = std::move(file_);
  const std::string bytes = std::exchange(buffer_, {});
  try {
    file->write(bytes.data(), bytes.size());
    file_offset_ += bytes.size();
    file->commit();
  } catch (const OutputError& error) {
    throw TraceError(path_, file_offset_, error.problem());
  }
}

void TraceWriter::write_to_file(const char* data, std::size_t size) {
  try {
    file_->write(data, size);
  } catch (const OutputError& error) {
    throw TraceError(path_, file_offset_, error.problem());
  }
  file_offset_ += size;
}

void TraceWriter::fail(const std::string& problem) const { throw TraceError(path_, bytes_written(), problem); }

}  // namespace warpsim

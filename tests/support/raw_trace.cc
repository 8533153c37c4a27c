#include "raw_trace.h"

#include "record_checksum.h"
#include "trace_format.h"

namespace warpsim::testing {
namespace {

void append_le(std::string& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

// Decodes the varint length at `at`, leaving `at` just past it.
std::uint64_t read_length(const std::string& bytes, std::size_t& at) {
  std::uint64_t length = 0;
  int shift = 0;
  unsigned char byte = 0;
  do {
    byte = static_cast<unsigned char>(bytes.at(at++));
    length |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    shift += 7;
  } while (byte & 0x80);
  return length;
}

}  // namespace

std::string prelude(std::uint32_t version) {
  std::string out(trace_format::kMagic);
  append_le(out, version, 4);
  return out;
}

std::string encode_record(const Record& record) {
  std::string body = record.SerializeAsString();
  std::string out;
  for (std::uint64_t n = body.size();; n >>= 7) {
    out.push_back(static_cast<char>((n & 0x7f) | (n >= 0x80 ? 0x80 : 0)));
    if (n < 0x80) break;
  }
  return out + body;
}

std::string checksum_bytes(const std::string& record_bytes) {
  std::string out;
  append_le(out, record_checksum(record_bytes), trace_format::kChecksumBytes);
  return out;
}

void reseal_record(std::string& bytes, std::size_t record_offset) {
  std::size_t at = record_offset;
  const std::uint64_t length = read_length(bytes, at);
  bytes.replace(at + length, trace_format::kChecksumBytes, checksum_bytes(bytes.substr(at, length)));
}

std::string encode_header(const TraceHeader& header) {
  Record record;
  *record.mutable_header() = header;
  if (record.header().schema_version() == 0) record.mutable_header()->set_schema_version(1);
  return encode_record(record);
}

std::string encode_event(const Event& event) {
  Record record;
  *record.mutable_event() = event;
  return encode_record(record);
}

std::string trailer(std::uint64_t event_count) {
  std::string out(trace_format::kTrailerMagic);
  append_le(out, event_count, 8);
  return out;
}

std::vector<std::size_t> record_offsets(const std::string& bytes) {
  std::vector<std::size_t> offsets;
  const auto version = static_cast<unsigned char>(bytes.at(trace_format::kMagic.size()));
  const std::size_t checksum_bytes =
      version >= trace_format::kFirstChecksummedVersion ? trace_format::kChecksumBytes : 0;
  std::size_t at = trace_format::kPreludeBytes;
  const std::size_t end = bytes.size() - trace_format::kTrailerBytes;
  while (at < end) {
    offsets.push_back(at);
    const std::uint64_t length = read_length(bytes, at);
    at += length + checksum_bytes;
  }
  return offsets;
}

}  // namespace warpsim::testing

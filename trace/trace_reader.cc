#include "trace_reader.h"

#include <array>
#include <cstdio>
#include <fstream>
#include <system_error>
#include <utility>
#include <vector>

#include "record_checksum.h"
#include "trace_error.h"
#include "trace_format.h"

namespace warpsim {
namespace {

std::uint64_t read_le(const char* bytes, std::size_t count) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < count; ++i)
    value |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[i])) << (8 * i);
  return value;
}

// The size of the regular file at `path`, or a TraceError saying why it cannot be read.
std::uint64_t regular_file_size(const std::filesystem::path& path) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status)) throw TraceError(path.string(), std::nullopt, "no such file");
  if (std::filesystem::is_directory(status)) throw TraceError(path.string(), std::nullopt, "is a directory");
  const std::uint64_t size = std::filesystem::file_size(path, error);
  if (error) throw TraceError(path.string(), std::nullopt, "cannot read: " + error.message());
  return size;
}

// A file read through a 1 MiB buffer: a pass over a trace makes 1 MiB reads instead of 8 KiB ones.
class LargeBufferFile : public std::ifstream {
 public:
  explicit LargeBufferFile(const std::filesystem::path& path) : buffer_(std::size_t{1} << 20) {
    rdbuf()->pubsetbuf(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));  // before open: libstdc++
    open(path, std::ios::binary);
  }
  LargeBufferFile(const LargeBufferFile&) = delete;
  LargeBufferFile& operator=(const LargeBufferFile&) = delete;
  ~LargeBufferFile() override { close(); }  // while the buffer still exists

 private:
  std::vector<char> buffer_;
};

std::unique_ptr<std::istream> open_binary(const std::filesystem::path& path) {
  auto stream = std::make_unique<LargeBufferFile>(path);
  if (!*stream) throw TraceError(path.string(), std::nullopt, "cannot open for reading");
  return stream;
}

std::string megabytes(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

std::string hex(std::uint32_t value) {
  std::array<char, 11> text{};
  std::snprintf(text.data(), text.size(), "0x%08x", value);
  return text.data();
}

}  // namespace

TraceReader::TraceReader(const std::filesystem::path& path)
    : TraceReader(nullptr, path.string(), regular_file_size(path)) {}

TraceReader::TraceReader(std::unique_ptr<std::istream> stream, std::string name, std::uint64_t size)
    : stream_(std::move(stream)), name_(std::move(name)), size_(size) {
  if (!stream_) stream_ = open_binary(name_);
  read_prelude();
  find_trailer();
  read_header();
}

void TraceReader::read_prelude() {
  if (size_ == 0) fail(0, "empty file: not a warpsim trace");
  std::array<char, trace_format::kPreludeBytes> prelude{};
  const std::size_t magic_size = trace_format::kMagic.size();
  if (size_ < magic_size) fail(0, "not a warpsim trace: too short for the magic bytes");
  read_bytes(prelude.data(), magic_size, 0);
  if (std::string_view(prelude.data(), magic_size) != trace_format::kMagic)
    fail(0, "not a warpsim trace: the file does not start with the warpsim magic bytes");
  if (size_ < trace_format::kPreludeBytes) fail(magic_size, "truncated trace: the file ends inside the format version");
  read_bytes(prelude.data() + magic_size, sizeof(std::uint32_t), magic_size);
  format_version_ = static_cast<std::uint32_t>(read_le(prelude.data() + magic_size, sizeof(std::uint32_t)));
  if (format_version_ == 0) fail(magic_size, "invalid format version 0");
  if (format_version_ > trace_format::kFormatVersion)
    fail(magic_size, "format version " + std::to_string(format_version_) + " is newer than this warpsim reads (up to " +
                         std::to_string(trace_format::kFormatVersion) + "): update warpsim");
  offset_ = trace_format::kPreludeBytes;
}

// A trailer at the very end means the writer closed the trace: the records stop before it, and any damage inside
// them is corruption rather than truncation.
void TraceReader::find_trailer() {
  records_end_ = size_;
  if (size_ < trace_format::kPreludeBytes + trace_format::kTrailerBytes) return;
  std::array<char, trace_format::kTrailerBytes> trailer{};
  const std::uint64_t at = size_ - trace_format::kTrailerBytes;
  seek(at);
  read_bytes(trailer.data(), trailer.size(), at);
  seek(offset_);
  const std::size_t magic_size = trace_format::kTrailerMagic.size();
  if (std::string_view(trailer.data(), magic_size) != trace_format::kTrailerMagic) return;
  records_end_ = at;
  trailer_event_count_ = read_le(trailer.data() + magic_size, sizeof(std::uint64_t));
}

void TraceReader::read_header() {
  const std::uint64_t at = offset_;
  if (at == records_end_) fail(at, "no header: the file holds no record after the prelude");
  if (!read_record()) fail(at, "no header: the file ends inside the first record (" + truncation_->reason + ")");
  if (record_.body_case() != Record::kHeader) {
    const std::string what =
        record_.body_case() == Record::kEvent ? "a " + event_kind_name(record_.event()) + " event" : "empty";
    fail(at, "no header: the first record is " + what);
  }
  header_.Swap(record_.mutable_header());
  if (header_.schema_version() != format_version_)
    fail(at, "header schema version " + std::to_string(header_.schema_version()) +
                 " differs from the file's format version " + std::to_string(format_version_));
  if (auto problem = find_header_problem(header_)) fail(at, *problem);
  devices_.emplace(header_);
}

bool TraceReader::next(Event& event) {
  if (finished_) return false;
  if (offset_ == records_end_) return finish();
  if (!read_record()) return false;
  switch (record_.body_case()) {
    case Record::kEvent: break;
    case Record::kHeader: fail(record_offset_, "a second header: a trace holds exactly one, at its start");
    case Record::BODY_NOT_SET:
      fail(record_offset_, "garbage inside the record: it holds neither a header nor an event");
  }
  if (auto problem = find_event_problem(record_.event(), *devices_))
    fail(record_offset_, "a " + event_kind_name(record_.event()) + " event " + *problem);
  event.Swap(record_.mutable_event());
  event_offset_ = record_offset_;
  ++events_read_;
  return true;
}

// Reads the record at the current offset into record_. Returns false if the file ends inside it and the trace has
// no trailer (a truncated tail); throws on corruption.
bool TraceReader::read_record() {
  record_offset_ = offset_;
  std::uint64_t length = 0;
  if (!read_varint(length)) return cut_short(record_offset_, "the file ends inside a record's length field");
  if (length == 0) fail_record("garbage: a record of length 0");
  if (length > trace_format::kMaxRecordBytes)
    fail_record("length field " + std::to_string(length) + " is absurdly large (a record is at most " +
                megabytes(trace_format::kMaxRecordBytes) + "): corrupt trace");
  const std::uint64_t checksum_bytes = has_checksums() ? trace_format::kChecksumBytes : 0;
  const std::uint64_t left = records_end_ - offset_;
  if (length + checksum_bytes > left)
    return cut_short(record_offset_, "length field " + std::to_string(length) +
                                         (checksum_bytes ? " plus the checksum is" : " is") + " larger than the " +
                                         std::to_string(left) + " bytes left in the file");
  record_bytes_.resize(length);
  read_bytes(record_bytes_.data(), length, offset_);
  offset_ += length;
  if (checksum_bytes) check_checksum();
  if (!record_.ParseFromString(record_bytes_))
    fail_record("garbage inside the record: its " + std::to_string(length) + " bytes are not a valid warpsim record");
  return true;
}

// Damage is named as damage before the bytes are parsed: a changed byte could still parse as a different record.
void TraceReader::check_checksum() {
  std::array<char, trace_format::kChecksumBytes> stored_bytes{};
  read_bytes(stored_bytes.data(), stored_bytes.size(), offset_);
  offset_ += stored_bytes.size();
  const auto stored = static_cast<std::uint32_t>(read_le(stored_bytes.data(), stored_bytes.size()));
  const std::uint32_t computed = record_checksum(record_bytes_);
  if (stored != computed)
    fail_record("checksum mismatch: the record's " + std::to_string(record_bytes_.size()) +
                " bytes (or its checksum) changed after it was written: damaged trace (stored " + hex(stored) +
                ", computed " + hex(computed) + ")");
}

bool TraceReader::read_varint(std::uint64_t& value) {
  value = 0;
  for (std::size_t i = 0; i < trace_format::kMaxVarintBytes; ++i) {
    if (offset_ == records_end_) return false;
    char byte = 0;
    read_bytes(&byte, 1, offset_);
    ++offset_;
    const auto bits = static_cast<unsigned char>(byte);
    value |= static_cast<std::uint64_t>(bits & 0x7f) << (7 * i);
    if ((bits & 0x80) == 0) return true;
  }
  fail(record_offset_, "garbage: a record length field longer than 10 bytes");
}

// A record that cannot be one: corruption, unless an end-of-trace trailer stands where it starts.
void TraceReader::fail_record(const std::string& reason) {
  refuse_junk_after_trailer(record_offset_);
  fail(record_offset_, reason);
}

// A trailer where a record should start: the trace was closed there and bytes were appended after it, which is not
// a truncation (the events are whole) but not the file warpsim wrote either.
void TraceReader::refuse_junk_after_trailer(std::uint64_t at) {
  if (size_ < at + trace_format::kTrailerBytes) return;
  std::string magic(trace_format::kTrailerMagic.size(), '\0');
  seek(at);
  read_bytes(magic.data(), magic.size(), at);
  seek(offset_);
  if (magic != trace_format::kTrailerMagic) return;
  fail(at, "the end-of-trace trailer is here, followed by " + std::to_string(size_ - at - trace_format::kTrailerBytes) +
               " bytes that are not part of the trace (junk appended after it)");
}

// The file ends inside a record: the tail of a killed recording when there is no trailer, corruption when there is.
bool TraceReader::cut_short(std::uint64_t offset, const std::string& reason) {
  refuse_junk_after_trailer(offset);
  if (trailer_event_count_) fail(offset, reason + " (the trace was closed, so this is corruption)");
  truncation_ = Truncation{offset, reason};
  finished_ = true;
  return false;
}

bool TraceReader::finish() {
  finished_ = true;
  if (!trailer_event_count_) {
    truncation_ =
        Truncation{offset_, "no end-of-trace trailer after the last complete record: the recording stopped early"};
    return false;
  }
  if (*trailer_event_count_ != events_read_)
    fail(offset_, "the trailer counts " + std::to_string(*trailer_event_count_) + " events but the file holds " +
                      std::to_string(events_read_));
  return false;
}

std::string TraceReader::truncation_warning() const {
  if (!truncation_) return {};
  return name_ + ": offset " + std::to_string(truncation_->offset) + ": truncated trace: " + truncation_->reason +
         "; " + std::to_string(events_read_) + " complete events read";
}

void TraceReader::read_bytes(char* data, std::uint64_t size, std::uint64_t offset) {
  if (stream_->read(data, static_cast<std::streamsize>(size))) return;
  fail(offset, "read error: the file is shorter than its size (" + std::to_string(size_) +
                   " bytes) said; was it changed while being read?");
}

void TraceReader::seek(std::uint64_t offset) {
  stream_->clear();
  if (!stream_->seekg(static_cast<std::streamoff>(offset))) fail(offset, "cannot seek in the file");
}

void TraceReader::fail(std::uint64_t offset, const std::string& problem) const {
  throw TraceError(name_, offset, problem);
}

}  // namespace warpsim

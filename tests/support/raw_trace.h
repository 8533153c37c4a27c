#pragma once
/// @brief Builds trace bytes by hand, independently of TraceWriter, so tests can make files the writer would refuse
/// (and check the byte layout trace_format.h documents).

#include <cstdint>
#include <string>
#include <vector>

#include "trace.pb.h"

namespace warpsim::testing {

/// Magic bytes plus `version` as little-endian uint32.
std::string prelude(std::uint32_t version);
/// varint(length) + serialized record (format 1: no checksum).
std::string encode_record(const Record& record);
/// The little-endian checksum format 2 puts after a record's serialized bytes.
std::string checksum_bytes(const std::string& record_bytes);
/// Puts back the checksum of the record at `record_offset` (its length field) in format-2 trace bytes, after a test
/// changed its contents: the reader then sees the change itself rather than a checksum mismatch.
void reseal_record(std::string& bytes, std::size_t record_offset);
std::string encode_header(const TraceHeader& header);  // sets schema_version to 1 unless already set
std::string encode_event(const Event& event);
/// Trailer magic plus `event_count` as little-endian uint64.
std::string trailer(std::uint64_t event_count);
/// Offsets of each record (its length field) in well-formed trace bytes of any format version, header first.
std::vector<std::size_t> record_offsets(const std::string& bytes);

}  // namespace warpsim::testing

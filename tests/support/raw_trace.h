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
/// varint(length) + serialized record.
std::string encode_record(const Record& record);
std::string encode_header(const TraceHeader& header);  // sets schema_version to 1 unless already set
std::string encode_event(const Event& event);
/// Trailer magic plus `event_count` as little-endian uint64.
std::string trailer(std::uint64_t event_count);
/// Offsets of each record (its length field) in well-formed trace bytes, header first.
std::vector<std::size_t> record_offsets(const std::string& bytes);

}  // namespace warpsim::testing

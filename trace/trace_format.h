#pragma once
/// @file
/// @brief Byte layout of a .wstrace file: constants shared by the writer and the reader.
///
///   offset 0   8 bytes   magic "\x89WSTRACE"   (high byte first, as PNG: a text-mode copy or a wrong file shows)
///   offset 8   4 bytes   format version, little-endian uint32
///   offset 12  records   each: varint byte length, then a serialized warpsim::Record (header first, then events),
///                        then (format 2 on) the little-endian uint32 record_checksum() of those serialized bytes
///   end        16 bytes  trailer, only after a clean close: "\x89WSTREND" + little-endian uint64 event count
///
/// A file without the trailer was not closed (the app was killed, or the tracer is still writing): readers return
/// every complete event and warn that the trace is truncated. Format 1 (before 2026-11-27) is format 2 without the
/// checksums; it is still read.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace warpsim::trace_format {

inline constexpr std::string_view kMagic{"\x89WSTRACE", 8};
inline constexpr std::string_view kTrailerMagic{"\x89WSTREND", 8};
inline constexpr std::uint32_t kFormatVersion = 2;
inline constexpr std::uint32_t kFirstChecksummedVersion = 2;
inline constexpr std::size_t kChecksumBytes = sizeof(std::uint32_t);
inline constexpr std::size_t kPreludeBytes = kMagic.size() + sizeof(std::uint32_t);
inline constexpr std::size_t kTrailerBytes = kTrailerMagic.size() + sizeof(std::uint64_t);
/// No valid record comes near this: a kernel event with full counters is under 2 KiB. A larger length is corruption,
/// and refusing it bounds the reader's memory.
inline constexpr std::uint64_t kMaxRecordBytes = 64ull << 20;
/// Longest base-128 varint encoding of a uint64.
inline constexpr std::size_t kMaxVarintBytes = 10;

}  // namespace warpsim::trace_format

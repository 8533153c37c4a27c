#pragma once
/// @brief The checksum each record of a format-2 trace carries after its bytes, so that a byte changed after writing
/// (a bad disk, a bad copy, an edit) is caught where it is instead of being replayed as a different workload.
///
/// zlib's CRC-32 (the ISO-HDLC polynomial of zip and PNG): Debian 12 packages no C or C++ CRC-32C library, and for
/// damage detection the two are equal (every error of 1 to 3 bits and every burst up to 32 bits is caught; other
/// damage escapes with probability 2^-32). Computed by Intel's ISA-L where it is installed (Debian's libisal-dev),
/// else by zlib, which is everywhere the tracer runs, GPU machines included: the same value either way.

#include <cstdint>
#include <string_view>

namespace warpsim {

std::uint32_t record_checksum(std::string_view record_bytes);

}  // namespace warpsim

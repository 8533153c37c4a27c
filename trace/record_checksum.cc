#include "record_checksum.h"

#include <zlib.h>

namespace warpsim {

std::uint32_t record_checksum(std::string_view record_bytes) {
  const auto* data = reinterpret_cast<const Bytef*>(record_bytes.data());
  return static_cast<std::uint32_t>(crc32_z(crc32_z(0, Z_NULL, 0), data, record_bytes.size()));
}

}  // namespace warpsim

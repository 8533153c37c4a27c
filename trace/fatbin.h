#pragma once
/// @brief The cubins inside a fatbin: what nvcc -fatbin writes, what libraries such as cuBLAS hand the driver, and
/// what a host program or shared library embeds (its .nv_fatbin section). A fatbin holds one entry per target (a
/// cubin for one GPU architecture, or PTX); since CUDA 12.8 an entry may be ZSTD-compressed (cuBLAS 13 ships them so).
///
/// The layout is not documented by NVIDIA; what is read here was checked on nvcc 13.0's output and on cuBLAS 13's
/// libraries: a 16-byte header (magic 0xBA55ED50, version, header size, size of the entries), then entries, each a
/// header (kind 2 = ELF at byte 0, its header size at 4, payload size at 8, architecture at 28 as major*10+minor,
/// flags at 40 with 0x8000 = ZSTD-compressed, uncompressed size at 56) followed by its payload.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace warpsim::trace {

/// Whether `image` starts with a fatbin header.
bool is_fatbin_image(std::span<const std::byte> image);

/// Whether this build decodes ZSTD-compressed entries (it links libzstd when the build machine has it).
bool decodes_compressed_entries();

struct FatbinCubins {
  std::vector<std::vector<std::byte>> cubins;  ///< the chosen cubin of each fatbin found, decompressed
  std::uint64_t undecodable = 0;  ///< chosen entries compressed in a way this build cannot decode (so left out)
};

/// For every fatbin in `image` (one, several back to back, or a file that embeds them: found by their header at
/// 8-byte alignment), the cubin that runs on architecture `arch` (major*10+minor, 90 for H100 and H200): the entry
/// of exactly that architecture, else the newest one of the same major below it (an sm_80 cubin runs on sm_86), else
/// none. std::nullopt, never a crash, when `image` is a fatbin whose header or entries reach past it or an entry does
/// not decompress to its stated size; in a file that embeds fatbins such a candidate is passed over.
std::optional<FatbinCubins> fatbin_cubins(std::span<const std::byte> image, std::uint32_t arch);

}  // namespace warpsim::trace

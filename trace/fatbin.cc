#include "fatbin.h"

#include <cstring>

#ifdef WARPSIM_HAVE_ZSTD
#include <zstd.h>
#endif

namespace warpsim::trace {
namespace {

constexpr std::uint32_t kFatbinMagic = 0xBA55ED50;
constexpr std::uint16_t kFatbinVersion = 1;
constexpr std::size_t kFatbinHeaderBytes = 16;
constexpr std::size_t kEntryHeaderMinBytes = 64;
constexpr std::uint16_t kKindElf = 2;
constexpr std::uint64_t kFlagZstd = 0x8000;
constexpr std::uint64_t kFlagOlderCompression = 0x2000;  // before CUDA 12.8: not decoded here

template <typename T>
T read(std::span<const std::byte> bytes, std::size_t at) {
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof value);
  return value;
}

struct Entry {
  std::uint16_t kind = 0;
  std::uint32_t arch = 0;
  std::uint64_t flags = 0;
  std::uint64_t uncompressed_bytes = 0;
  std::span<const std::byte> payload;
};

// The entries of the fatbin at the start of `image`, and its whole size; nullopt when they reach past the image.
std::optional<std::vector<Entry>> entries_of(std::span<const std::byte> image, std::size_t& fatbin_bytes) {
  if (image.size() < kFatbinHeaderBytes) return std::nullopt;
  const auto header_bytes = read<std::uint16_t>(image, 6);
  const auto entries_bytes = read<std::uint64_t>(image, 8);
  if (read<std::uint16_t>(image, 4) != kFatbinVersion || header_bytes < kFatbinHeaderBytes ||
      header_bytes > image.size() || entries_bytes > image.size() - header_bytes)
    return std::nullopt;
  fatbin_bytes = header_bytes + entries_bytes;
  std::vector<Entry> entries;
  std::size_t at = header_bytes;
  while (at + kEntryHeaderMinBytes <= fatbin_bytes) {
    const auto entry_header = read<std::uint32_t>(image, at + 4);
    const auto payload_bytes = read<std::uint64_t>(image, at + 8);
    if (entry_header < kEntryHeaderMinBytes || entry_header > fatbin_bytes - at ||
        payload_bytes > fatbin_bytes - at - entry_header)
      return std::nullopt;
    Entry e;
    e.kind = read<std::uint16_t>(image, at);
    e.arch = read<std::uint32_t>(image, at + 28);
    e.flags = read<std::uint64_t>(image, at + 40);
    e.uncompressed_bytes = read<std::uint64_t>(image, at + 56);
    e.payload = image.subspan(at + entry_header, payload_bytes);
    entries.push_back(e);
    at += entry_header + payload_bytes;
  }
  return entries;
}

// The ELF entry for `arch`: exact, else the newest of the same major below it.
const Entry* choose(const std::vector<Entry>& entries, std::uint32_t arch) {
  const Entry* best = nullptr;
  for (const Entry& e : entries) {
    if (e.kind != kKindElf || e.arch > arch || e.arch / 10 != arch / 10) continue;
    if (best == nullptr || e.arch > best->arch) best = &e;
  }
  return best;
}

enum class Decoded { kOk, kUndecodable, kCorrupt };

Decoded decode(const Entry& e, std::vector<std::byte>& cubin) {
  if ((e.flags & kFlagZstd) == 0) {
    if ((e.flags & kFlagOlderCompression) != 0) return Decoded::kUndecodable;
    cubin.assign(e.payload.begin(), e.payload.end());
    return Decoded::kOk;
  }
#ifdef WARPSIM_HAVE_ZSTD
  // The payload is padded to 8 bytes after the frame: decompress the frame alone.
  const std::size_t frame = ZSTD_findFrameCompressedSize(e.payload.data(), e.payload.size());
  if (ZSTD_isError(frame) || e.uncompressed_bytes == 0) return Decoded::kCorrupt;
  cubin.resize(e.uncompressed_bytes);
  const std::size_t made = ZSTD_decompress(cubin.data(), cubin.size(), e.payload.data(), frame);
  return !ZSTD_isError(made) && made == e.uncompressed_bytes ? Decoded::kOk : Decoded::kCorrupt;
#else
  return Decoded::kUndecodable;
#endif
}

// Where the next fatbin header starts at or after `from`, 8-byte aligned; image.size() when none.
std::size_t next_fatbin(std::span<const std::byte> image, std::size_t from) {
  for (std::size_t at = (from + 7) & ~std::size_t{7}; at + kFatbinHeaderBytes <= image.size(); at += 8) {
    if (read<std::uint32_t>(image, at) == kFatbinMagic) return at;
  }
  return image.size();
}

}  // namespace

bool decodes_compressed_entries() {
#ifdef WARPSIM_HAVE_ZSTD
  return true;
#else
  return false;
#endif
}

bool is_fatbin_image(std::span<const std::byte> image) {
  return image.size() >= kFatbinHeaderBytes && read<std::uint32_t>(image, 0) == kFatbinMagic;
}

std::optional<FatbinCubins> fatbin_cubins(std::span<const std::byte> image, std::uint32_t arch) {
  // A fatbin image must be whole; in a file that embeds fatbins, the header's magic may also occur by chance in
  // host code or data, so a candidate that does not parse is passed over.
  const bool embedded = !is_fatbin_image(image);
  FatbinCubins result;
  for (std::size_t at = next_fatbin(image, 0); at < image.size();) {
    std::size_t fatbin_bytes = 0;
    const auto entries = entries_of(image.subspan(at), fatbin_bytes);
    if (!entries) {
      if (!embedded) return std::nullopt;
      at = next_fatbin(image, at + 8);
      continue;
    }
    if (const Entry* chosen = choose(*entries, arch)) {
      std::vector<std::byte> cubin;
      switch (decode(*chosen, cubin)) {
        case Decoded::kOk: result.cubins.push_back(std::move(cubin)); break;
        case Decoded::kUndecodable: ++result.undecodable; break;
        case Decoded::kCorrupt:
          if (!embedded) return std::nullopt;
          break;
      }
    }
    at = next_fatbin(image, at + fatbin_bytes);
  }
  return result;
}

}  // namespace warpsim::trace

// The cubins inside fatbins: nvcc 13.0's fatbins of the SASS fixture kernels (tests/data/sass/), plain and
// ZSTD-compressed, alone or embedded in other bytes, and clean refusal (never a crash) of cut or corrupt ones.
#include "fatbin.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "sample_trace.h"
#include "sass_summary.h"

namespace warpsim::trace {
namespace {

using Bytes = std::vector<std::byte>;

Bytes fixture(const std::string& name) {
  const std::string text = testing::read_file(std::string(WARPSIM_TEST_DATA) + "/sass/" + name);
  const auto bytes = std::as_bytes(std::span(text));
  return {bytes.begin(), bytes.end()};
}

// kernels_plain.fatbin: sm_90 only, stored as is. kernels_compressed.fatbin: sm_80 and sm_90 cubins and compute_90
// PTX, every entry ZSTD-compressed (tests/data/sass/README.md says how both were made).
const Bytes kPlain = fixture("kernels_plain.fatbin");
const Bytes kCompressed = fixture("kernels_compressed.fatbin");
const Bytes kCubin = fixture("kernels_sm90.cubin");

// The SM number in a cubin's ELF flags (sm_80 and later: bits 8-15).
std::uint32_t cubin_sm(const Bytes& cubin) {
  std::uint32_t flags = 0;
  std::memcpy(&flags, cubin.data() + 48, sizeof flags);  // Elf64_Ehdr::e_flags
  return (flags >> 8) & 0xff;
}

TEST(Fatbin, RecognisesItsHeader) {
  EXPECT_TRUE(is_fatbin_image(kPlain));
  EXPECT_TRUE(is_fatbin_image(kCompressed));
  EXPECT_FALSE(is_fatbin_image(kCubin));
  EXPECT_FALSE(is_fatbin_image(std::span(kPlain).first(8)));
}

TEST(Fatbin, PlainEntryIsTheCubinNvccWrites) {
  const auto found = fatbin_cubins(kPlain, 90);
  ASSERT_TRUE(found);
  ASSERT_EQ(found->cubins.size(), 1u);
  EXPECT_EQ(found->cubins[0], kCubin);
}

TEST(Fatbin, CompressedEntryDecompressesToTheSameCubin) {
  const auto found = fatbin_cubins(kCompressed, 90);
  ASSERT_TRUE(found);
  if (!decodes_compressed_entries()) {
    EXPECT_TRUE(found->cubins.empty());
    EXPECT_EQ(found->undecodable, 1u);
    GTEST_SKIP() << "built without libzstd: compressed entries are counted, not decoded";
  }
  ASSERT_EQ(found->cubins.size(), 1u);
  EXPECT_EQ(found->cubins[0], kCubin);
  EXPECT_EQ(found->undecodable, 0u);
}

// sm_86 runs sm_80 code; sm_100 and sm_75 have nothing here (another major, and older than every cubin).
TEST(Fatbin, PicksTheNewestCubinOfTheSameMajor) {
  if (!decodes_compressed_entries()) GTEST_SKIP() << "built without libzstd";
  const auto on_86 = fatbin_cubins(kCompressed, 86);
  ASSERT_TRUE(on_86);
  ASSERT_EQ(on_86->cubins.size(), 1u);
  EXPECT_EQ(cubin_sm(on_86->cubins[0]), 80u);
  const auto summaries = summarize_cubin(on_86->cubins[0]);
  ASSERT_TRUE(summaries);
  EXPECT_FALSE(summaries->empty());
  EXPECT_TRUE(fatbin_cubins(kCompressed, 100)->cubins.empty());
  EXPECT_TRUE(fatbin_cubins(kCompressed, 75)->cubins.empty());
}

// A program or library embeds its fatbins among other bytes (here also a stray copy of the magic that heads nothing).
TEST(Fatbin, FindsFatbinsEmbeddedInOtherBytes) {
  Bytes file(64, std::byte{0x11});
  const Bytes stray = {std::byte{0x50}, std::byte{0xED}, std::byte{0x55}, std::byte{0xBA}};
  std::copy(stray.begin(), stray.end(), file.begin() + 16);  // aligned, but its sizes are junk
  file.insert(file.end(), kPlain.begin(), kPlain.end());
  file.resize(file.size() + 24, std::byte{0x22});
  file.insert(file.end(), kPlain.begin(), kPlain.end());
  const auto found = fatbin_cubins(file, 90);
  ASSERT_TRUE(found);
  ASSERT_EQ(found->cubins.size(), 2u);
  EXPECT_EQ(found->cubins[1], kCubin);
}

TEST(Fatbin, CutFatbinIsRefusedAtEveryLength) {
  for (std::size_t size = 16; size < kCompressed.size(); size += 7) {
    const auto found = fatbin_cubins(std::span(kCompressed).first(size), 90);
    EXPECT_FALSE(found && !found->cubins.empty()) << "cut at " << size;
  }
}

// The sm_90 entry is the second: its 64-byte header at 1552 (after the 16-byte fatbin header and the sm_80 entry).
TEST(Fatbin, CorruptCompressedEntryIsRefused) {
  if (!decodes_compressed_entries()) GTEST_SKIP() << "built without libzstd";
  constexpr std::size_t kSm90Entry = 1552;
  Bytes no_frame = kCompressed;
  no_frame[kSm90Entry + 64] ^= std::byte{0x5a};  // the ZSTD frame's magic
  EXPECT_FALSE(fatbin_cubins(no_frame, 90));
  Bytes wrong_size = kCompressed;
  wrong_size[kSm90Entry + 56] = std::byte{0x01};  // the stated uncompressed size no longer matches
  EXPECT_FALSE(fatbin_cubins(wrong_size, 90));
}

}  // namespace
}  // namespace warpsim::trace

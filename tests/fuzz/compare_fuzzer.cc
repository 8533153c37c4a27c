// libFuzzer target: two traces made of any bytes (the input cut at its first "|||", or the input against itself),
// compared as `warpsim compare A B` does, with its text and JSON reports: either a comparison or an exception with a
// message; never a crash, hang, leak or read out of bounds. Run: scripts/fuzz.sh SECONDS.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "analysis/compare.h"
#include "outputs/compare_json.h"
#include "outputs/compare_text.h"
#include "outputs/printable.h"

namespace {

namespace fs = std::filesystem;

fs::path scratch(const char* name) {
  static const fs::path dir = [] {
    const fs::path made = fs::temp_directory_path() / ("warpsim-compare-fuzz-" + std::to_string(::getpid()));
    fs::create_directories(made);
    return made;
  }();
  return dir / name;
}

void write(const fs::path& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t cut = input.find("|||");
  const fs::path a = scratch("a.wstrace");
  const fs::path b = scratch("b.wstrace");
  write(a, input.substr(0, cut));
  write(b, cut == std::string_view::npos ? input : input.substr(cut + 3));
  try {
    const warpsim::report::Comparison comparison = warpsim::report::compare_traces(a, b);
    (void)warpsim::report::comparison_to_text(comparison, 15);
    (void)warpsim::report::json_text(warpsim::report::comparison_to_json(comparison), 2);
  } catch (const std::exception&) {
    // Expected for most inputs (the CLI prints the message as one line); the fuzzer only looks for crashes.
  }
  return 0;
}

// libFuzzer target: any bytes as a node file, as a GPU file, or as --set assignments (one a line) on a shipped node
// must load and validate or throw PlatformError naming what is wrong; never crash, hang, leak or abort (SimGrid
// aborted on values the checks let through). The first byte picks the mode. Run: scripts/fuzz.sh SECONDS.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "platform.h"
#include "wave/gpu_tuple.h"

namespace {

namespace fs = std::filesystem;

void write(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string read(const fs::path& path) {
  std::ostringstream text;
  text << std::ifstream(path, std::ios::binary).rdbuf();
  return text.str();
}

// A platforms root of this process's own: the shipped H100 GPU file and h100-pcie node, the same node on a GPU named
// "FUZZ" (fuzz-gpu), and the files the fuzzer writes.
const fs::path& fuzz_root() {
  static const fs::path root = [] {
    const fs::path shipped = warpsim::platform::default_platforms_root();
    const fs::path made = fs::temp_directory_path() / ("warpsim-platform-fuzz-" + std::to_string(::getpid()));
    fs::create_directories(made / "nodes");
    fs::create_directories(made / "gpus");
    fs::copy_file(shipped / "gpus" / "H100-SXM5-80GB.textproto", made / "gpus" / "H100-SXM5-80GB.textproto",
                  fs::copy_options::overwrite_existing);
    std::string node = read(shipped / "nodes" / "h100-pcie.textproto");
    write(made / "nodes" / "h100-pcie.textproto", node);
    node.replace(node.find("\"H100-SXM5-80GB\""), 16, "\"FUZZ\"");
    write(made / "nodes" / "fuzz-gpu.textproto", node);
    return made;
  }();
  return root;
}

// The fuzzed GPU file, there while one input runs: the catalog reads every file of gpus/.
struct FuzzedGpuFile {
  fs::path path;
  ~FuzzedGpuFile() { fs::remove(path); }
};

// What the models compute from a loaded GPU first: every rate and latency they divide by.
void use(const warpsim::platform::Platform& platform) {
  for (const warpsim::platform::GpuSpec& gpu : platform.gpus) (void)warpsim::models::wave::gpu_tuple(gpu);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const fs::path& root = fuzz_root();
  try {
    switch (data[0] % 3) {
      case 0:
        write(root / "nodes" / "fuzz.textproto", text);
        use(warpsim::platform::load_platform("fuzz", {}, root));
        break;
      case 1: {
        const FuzzedGpuFile gpu{root / "gpus" / "FUZZ.textproto"};
        write(gpu.path, text);
        use(warpsim::platform::load_platform("fuzz-gpu", {}, root));
        break;
      }
      default: {
        std::vector<std::string> assignments;
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);) assignments.push_back(line);
        use(warpsim::platform::load_platform("h100-pcie", assignments, root));
      }
    }
  } catch (const warpsim::platform::PlatformError&) {
    // Expected for most inputs: the message is what users see; the fuzzer only looks for crashes.
  }
  return 0;
}

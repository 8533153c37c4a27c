// Writes the synthetic sample traces committed in tests/data/ (see tests/data/README.md):
//   make_sample_trace OUT_DIR   ->  OUT_DIR/sample.wstrace, OUT_DIR/sample-truncated.wstrace
// The truncated one is the complete one without its trailer and cut inside its last record, as a recording killed
// mid-write leaves it.
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "sample_trace.h"
#include "trace_format.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_sample_trace OUT_DIR\n";
    return 2;
  }
  namespace wt = warpsim::testing;
  const std::filesystem::path dir = argv[1];
  const auto complete = dir / "sample.wstrace";
  wt::write_trace(complete, wt::two_gpu_header(), wt::sample_events());
  const std::string bytes = wt::read_file(complete);
  constexpr std::size_t kCutIntoLastRecord = 7;
  wt::write_file(dir / "sample-truncated.wstrace",
                 bytes.substr(0, bytes.size() - warpsim::trace_format::kTrailerBytes - kCutIntoLastRecord));
  return EXIT_SUCCESS;
}

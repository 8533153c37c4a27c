// libFuzzer target: any bytes given to the trace reader, and the inspect summary built from what it returns, must
// either work or throw TraceError; never crash, hang, leak or read out of bounds. Run: scripts/fuzz.sh SECONDS.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include "analysis/trace_summary.h"
#include "outputs/summary_json.h"
#include "outputs/summary_text.h"
#include "trace_error.h"
#include "trace_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    warpsim::TraceReader reader(std::make_unique<std::istringstream>(std::move(bytes)), "fuzz.wstrace", size);
    const warpsim::report::TraceSummary summary = warpsim::report::summarize(reader);
    (void)warpsim::report::summary_to_json(summary).dump();
    (void)warpsim::report::summary_to_text(summary);
  } catch (const warpsim::TraceError&) {
    // Expected for most inputs: the message is what users see; the fuzzer only looks for crashes.
  }
  return 0;
}

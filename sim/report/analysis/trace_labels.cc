#include "analysis/trace_labels.h"

namespace warpsim::report {

std::string copy_kind_label(Memcpy::Kind kind) {
  switch (kind) {
    case Memcpy::HTOD: return "HtoD";
    case Memcpy::DTOH: return "DtoH";
    case Memcpy::DTOD: return "DtoD";
    case Memcpy::PTOP: return "PtoP";
    case Memcpy::HTOH: return "HtoH";
    default: return "unknown";
  }
}

std::string capture_mode_label(CaptureMode mode) {
  switch (mode) {
    case CAPTURE_MODE_TIMELINE: return "timeline";
    case CAPTURE_MODE_COUNTERS: return "counters";
    case CAPTURE_MODE_TRAFFIC: return "traffic";
    case CAPTURE_MODE_SIMULATED: return "simulated";
    case CAPTURE_MODE_SYNTHETIC: return "synthetic";
    default: return "unspecified";
  }
}

}  // namespace warpsim::report

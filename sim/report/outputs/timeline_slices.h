#pragma once
/// @brief What a timeline slice says about its event: the name on the bar, its category and the arguments shown
/// when it is selected.

#include <nlohmann/json.hpp>

#include <string>

#include "trace.pb.h"

namespace warpsim::report {

struct SliceText {
  std::string name;      ///< short kernel name, "Memcpy HtoD 1.0 MiB", "Memset 64.0 MiB", the marker's name,
                         ///< the API call's name without its version suffix ("cudaLaunchKernel")
  const char* category;  ///< "kernel", "memcpy", "memset", "marker", "api"
  nlohmann::json args;
  bool instant = false;  ///< a marker without end: an instant, not a slice
};

/// The text of a kernel, copy, memset, marker or API call event (synchronizations get a bare name).
SliceText slice_text(const Event& event);

}  // namespace warpsim::report

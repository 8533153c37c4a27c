#pragma once
/// @brief What a timeline slice says about its event: the name on the bar, its category and the arguments shown
/// when it is selected.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "trace.pb.h"

namespace warpsim::report {

/// One argument shown with a slice. Arguments of a `group` ("counters") follow each other and show as one object
/// of that name. A flat list, not a JSON object: a timeline of a million operations builds millions of them.
struct SliceArgument {
  enum class Kind : std::uint8_t { kNumber, kReal, kText };
  SliceArgument(const char* key_name, std::uint64_t value, const char* group_name = nullptr)
      : key(key_name), group(group_name), kind(Kind::kNumber), number(value) {}
  SliceArgument(const char* key_name, double value, const char* group_name = nullptr)
      : key(key_name), group(group_name), kind(Kind::kReal), real(value) {}
  SliceArgument(const char* key_name, std::string value, const char* group_name = nullptr)
      : key(key_name), group(group_name), kind(Kind::kText), text(std::move(value)) {}

  const char* key;
  const char* group;
  Kind kind;
  std::uint64_t number = 0;
  double real = 0;
  std::string text;
};

struct SliceText {
  std::string name;      ///< short kernel name, "Memcpy HtoD 1.0 MiB", "Memset 64.0 MiB", the marker's name,
                         ///< the API call's name without its version suffix ("cudaLaunchKernel")
  const char* category;  ///< "kernel", "memcpy", "memset", "marker", "api"
  std::vector<SliceArgument> args;
  bool instant = false;  ///< a marker without end: an instant, not a slice
};

/// The text of a kernel, copy, memset, marker or API call event (synchronizations get a bare name).
SliceText slice_text(const Event& event);

}  // namespace warpsim::report

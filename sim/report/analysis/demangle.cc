#include "analysis/demangle.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace warpsim::report {

std::string demangle(const std::string& name) {
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> readable(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && readable ? std::string(readable.get()) : name;
}

}  // namespace warpsim::report

#include "analysis/demangle.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <unordered_map>

namespace warpsim::report {
namespace {

// A trace names a few hundred kernels a million times over, and demangling one costs microseconds: each thread keeps
// the names it demangled (timeline and CSV run on two), up to a bound that a trace of generated names cannot pass.
constexpr std::size_t kNamesKept = 1 << 14;

std::string demangle_uncached(const std::string& name) {
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> readable(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && readable ? std::string(readable.get()) : name;
}

}  // namespace

std::string demangle(const std::string& name) {
  thread_local std::unordered_map<std::string, std::string> demangled;
  if (const auto it = demangled.find(name); it != demangled.end()) return it->second;
  std::string readable = demangle_uncached(name);
  if (demangled.size() < kNamesKept) demangled.emplace(name, readable);
  return readable;
}

}  // namespace warpsim::report

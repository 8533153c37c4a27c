#include "counters/launch_selector.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace warpsim::tracer {
namespace {

std::string demangled(const std::string& name) {
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> text(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                                         &std::free);
  return status == 0 && text ? std::string(text.get()) : name;
}

}  // namespace

LaunchSelector::LaunchSelector(const std::string& regex, std::uint64_t skip, std::optional<std::uint64_t> count)
    : skip_(skip), count_(count) {
  if (!regex.empty()) regex_.emplace(regex);
}

bool LaunchSelector::select(const std::string& name) {
  if (regex_ && !std::regex_search(name, *regex_) && !std::regex_search(demangled(name), *regex_)) return false;
  const std::lock_guard lock(mutex_);
  const std::uint64_t index = matched_++;
  if (index < skip_) return false;
  return !count_ || index - skip_ < *count_;
}

}  // namespace warpsim::tracer

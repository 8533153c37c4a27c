#include "analysis/kernel_name.h"

#include <cstddef>

#include "analysis/demangle.h"

namespace warpsim::report {
namespace {

// Position of the '(' opening the trailing parameter list of `name`, or npos when it has none.
std::size_t parameter_list_start(const std::string& name) {
  if (name.empty() || name.back() != ')') return std::string::npos;
  int depth = 0;
  for (std::size_t i = name.size(); i-- > 0;) {
    if (name[i] == ')') ++depth;
    if (name[i] == '(' && --depth == 0) return i;
  }
  return std::string::npos;
}

// Where the name proper starts: after the last space outside <> and (), which ends a template function's return
// type ("void gemm<float, 128>"); spaces inside "(anonymous namespace)" or template arguments do not count.
std::size_t name_start(const std::string& name) {
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '<' || c == '(') ++depth;
    if (c == '>' || c == ')') --depth;
    if (c == ' ' && depth == 0) start = i + 1;
  }
  return start;
}

}  // namespace

std::string readable_kernel_name(const std::string& mangled) {
  return mangled.starts_with("_Z") ? demangle(mangled) : mangled;
}

std::string short_kernel_name(const std::string& mangled) {
  std::string readable = readable_kernel_name(mangled);
  const std::size_t parameters = parameter_list_start(readable);
  if (parameters == std::string::npos || parameters == 0) return readable;
  const std::string without_parameters = readable.substr(0, parameters);
  return without_parameters.substr(name_start(without_parameters));
}

}  // namespace warpsim::report

#pragma once
#include <string>

namespace warpsim::report {

/// The readable C++ name of a mangled kernel name ("_Z6matmulPfS_S_i" -> "matmul(float*, float*, float*, int)");
/// the name unchanged if it is not a mangled C++ name.
std::string demangle(const std::string& name);

}  // namespace warpsim::report

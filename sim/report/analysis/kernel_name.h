#pragma once
/// @brief Kernel names as people read them in tables and timelines.

#include <string>

namespace warpsim::report {

/// The demangled name, for names mangled as C++ functions ("_Z..."); any other name unchanged. The demangler alone
/// would read an extern "C" kernel named "c" or "f" as the builtin type it encodes ("char", "float").
std::string readable_kernel_name(const std::string& mangled);

/// The readable name without its parameter list or return type: "_ZN2ns6matmulEPKfPfi" -> "ns::matmul",
/// "_Z4gemmIfLi128EEvPf" -> "gemm<float, 128>". Full signatures of templated kernels run to hundreds of
/// characters; the short name is what distinguishes kernels in a table. Unmangled names come back unchanged.
std::string short_kernel_name(const std::string& mangled);

}  // namespace warpsim::report

#pragma once
// Text to the scalar types of protobuf fields, strictly: the whole text must be one value in range.
#include <cstdint>
#include <string_view>

namespace warpsim::platform {

/// Each throws std::invalid_argument naming the text and what was expected.
double parse_finite_double(std::string_view text);
std::uint64_t parse_unsigned(std::string_view text, std::uint64_t max);
std::int64_t parse_signed(std::string_view text, std::int64_t min, std::int64_t max);
bool parse_bool(std::string_view text);

}  // namespace warpsim::platform

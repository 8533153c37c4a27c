#include "scalar_parse.h"

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>
#include <system_error>

namespace warpsim::platform {
namespace {

/// Runs std::from_chars and insists that it consumed the whole text.
template <typename Number>
bool parse_whole(std::string_view text, Number& value) {
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  return error == std::errc() && stop == end;
}

std::invalid_argument not_a(std::string_view text, const std::string& what) {
  return std::invalid_argument("\"" + std::string(text) + "\" is not " + what);
}

}  // namespace

double parse_finite_double(std::string_view text) {
  double value = 0;
  if (!parse_whole(text, value) || !std::isfinite(value)) throw not_a(text, "a finite number");
  return value;
}

std::uint64_t parse_unsigned(std::string_view text, std::uint64_t max) {
  std::uint64_t value = 0;
  if (!parse_whole(text, value)) throw not_a(text, "an unsigned integer");
  if (value > max) throw not_a(text, "in range (at most " + std::to_string(max) + ")");
  return value;
}

std::int64_t parse_signed(std::string_view text, std::int64_t min, std::int64_t max) {
  std::int64_t value = 0;
  if (!parse_whole(text, value)) throw not_a(text, "an integer");
  if (value < min || value > max) {
    throw not_a(text, "in range (" + std::to_string(min) + ".." + std::to_string(max) + ")");
  }
  return value;
}

bool parse_bool(std::string_view text) {
  if (text == "true" || text == "1") return true;
  if (text == "false" || text == "0") return false;
  throw not_a(text, "a bool (true, false, 1 or 0)");
}

}  // namespace warpsim::platform

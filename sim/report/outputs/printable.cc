#include "outputs/printable.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace warpsim::report {
namespace {

// Length of the valid UTF-8 sequence starting at `at` (1-4), or 0 where the bytes there are not one: a lead byte
// without its continuation bytes, an overlong form, a surrogate, or beyond U+10FFFF.
std::size_t utf8_length(std::string_view text, std::size_t at, std::uint32_t& code_point) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  std::size_t length = 0;
  if (lead < 0x80) {
    code_point = lead;
    return 1;
  }
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
    code_point = lead & 0x1fu;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    code_point = lead & 0x0fu;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    code_point = lead & 0x07u;
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xc0) != 0x80) return 0;
    code_point = (code_point << 6) | (byte(at + i) & 0x3fu);
  }
  constexpr std::uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code_point < kSmallest[length] || code_point > 0x10ffff || (code_point >= 0xd800 && code_point <= 0xdfff))
    return 0;
  return length;
}

// Needs no escape in a JSON string: printable ASCII other than the quote and the backslash.
bool json_plain(char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; }

bool is_control(std::uint32_t code_point) {
  return code_point < 0x20 || code_point == 0x7f || (code_point >= 0x80 && code_point <= 0x9f);
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    std::uint32_t code_point = 0;
    const std::size_t length = utf8_length(text, at, code_point);
    if (length == 0) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[at]));
      ++at;
      continue;
    }
    if (is_control(code_point)) {
      out += code_point < 0x80 ? fmt::format("\\x{:02x}", code_point) : fmt::format("\\u{:04x}", code_point);
    } else {
      out.append(text.substr(at, length));
    }
    at += length;
  }
  return out;
}

std::string json_text(const nlohmann::json& json, int indent) {
  return json.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

void append_json_string(std::string& out, std::string_view text) {
  if (!std::all_of(text.begin(), text.end(), json_plain)) {
    out += json_text(nlohmann::json(text));
    return;
  }
  out += '"';
  out.append(text);
  out += '"';
}

}  // namespace warpsim::report

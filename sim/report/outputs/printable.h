#pragma once
/// @brief Text from a trace or a user made safe to print: to a terminal and into JSON.
///
/// Kernel names and file names come from programs and users: a name holding an escape sequence would drive the
/// terminal it is printed on, and bytes that are not UTF-8 would make a JSON output invalid (nlohmann::json refuses to
/// dump them).

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>

namespace warpsim::report {

/// `text` with every control character (C0, DEL and the C1 range U+0080-U+009F) and every byte that is not part of
/// valid UTF-8 written as a visible escape (`\x1b`, `\u009b`); everything else, other languages' characters
/// included, as it is.
std::string printable(std::string_view text);

/// `json` as text (`indent` as nlohmann::json::dump), bytes that are not UTF-8 replaced by U+FFFD instead of
/// throwing.
std::string json_text(const nlohmann::json& json, int indent = -1);

/// Appends `text` to `out` as a JSON string (quoted and escaped as json_text writes it): plain printable ASCII is
/// copied as it is, anything else goes through nlohmann::json. For writers of many small JSON values.
void append_json_string(std::string& out, std::string_view text);

}  // namespace warpsim::report

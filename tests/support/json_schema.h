#pragma once
/// @brief Checks a command's JSON output against its schema in docs/schemas/, as far as those schemas use JSON Schema:
/// type (one or a list), required, properties with additionalProperties false, items, minimum and $ref to
/// "#/$defs/NAME". Each mismatch is a test failure naming where it is ("summary.host.threads").

#include <string>

#include <nlohmann/json.hpp>

namespace warpsim::testing {

/// The schema docs/schemas/NAME.schema.json of the source tree.
nlohmann::json schema(const std::string& name);

void expect_matches_schema(const nlohmann::json& value, const nlohmann::json& schema, const std::string& where);

}  // namespace warpsim::testing

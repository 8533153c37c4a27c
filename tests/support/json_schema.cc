#include "json_schema.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "sample_trace.h"

namespace warpsim::testing {
namespace {

bool has_type(const nlohmann::json& value, const std::string& type) {
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "boolean") return value.is_boolean();
  if (type == "integer") return value.is_number_integer();
  if (type == "number") return value.is_number();
  if (type == "null") return value.is_null();
  ADD_FAILURE() << "schema type " << type << " is not handled here";
  return false;
}

// "#/$defs/origin" -> the root's $defs.origin.
const nlohmann::json& resolve(const nlohmann::json& node, const nlohmann::json& root) {
  if (!node.contains("$ref")) return node;
  const std::string ref = node["$ref"];
  const std::string prefix = "#/$defs/";
  if (!ref.starts_with(prefix)) throw std::runtime_error("schema $ref not handled here: " + ref);
  return root.at("$defs").at(ref.substr(prefix.size()));
}

void check(const nlohmann::json& value, const nlohmann::json& node, const nlohmann::json& root,
           const std::string& where) {
  const nlohmann::json& schema = resolve(node, root);
  const nlohmann::json types =
      schema.at("type").is_array() ? schema.at("type") : nlohmann::json::array({schema.at("type")});
  EXPECT_TRUE(std::any_of(types.begin(), types.end(), [&](const auto& type) { return has_type(value, type); }))
      << where << " is " << value.dump() << ", not " << types.dump();
  if (schema.contains("minimum") && value.is_number()) {
    EXPECT_GE(value.get<double>(), schema["minimum"].get<double>()) << where;
  }
  if (value.is_array() && schema.contains("items")) {
    for (std::size_t i = 0; i < value.size(); ++i)
      check(value[i], schema["items"], root, where + "[" + std::to_string(i) + "]");
  }
  if (!value.is_object() || !schema.contains("properties")) return;
  for (const auto& key : schema.value("required", nlohmann::json::array())) {
    EXPECT_TRUE(value.contains(key)) << where << " lacks " << key;
  }
  for (const auto& [key, item] : value.items()) {
    if (!schema["properties"].contains(key)) {
      ADD_FAILURE() << where << "." << key << " is not in the schema";
      continue;
    }
    check(item, schema["properties"][key], root, where + "." + key);
  }
}

}  // namespace

nlohmann::json schema(const std::string& name) {
  return nlohmann::json::parse(read_file(std::string(WARPSIM_SOURCE_DIR) + "/docs/schemas/" + name + ".schema.json"));
}

void expect_matches_schema(const nlohmann::json& value, const nlohmann::json& schema, const std::string& where) {
  check(value, schema, schema, where);
}

}  // namespace warpsim::testing

#pragma once
/// @brief Protobuf message -> nlohmann::json through reflection, keeping the schema's field names.
///
/// Unlike protobuf's own JSON printer, 64-bit integers stay numbers (users script on them) and `optional` fields
/// appear only when set, so an absent counter stays absent rather than printing 0. Enums print as their names.

#include <google/protobuf/message.h>
#include <nlohmann/json.hpp>

namespace warpsim::report {

nlohmann::json proto_to_json(const google::protobuf::Message& message);

}  // namespace warpsim::report

#pragma once
// Sets one field of a protobuf message from text, found by a dotted path of proto field names, through reflection:
// any field the schema gains can be overridden without code here changing.
#include <string_view>

#include <google/protobuf/message.h>

namespace warpsim::platform {

/// Sets the scalar at `path` in `message` from `value`, parsed by the field's type (double, float, signed and
/// unsigned integers with a range check, bool, string, enum by name).
///
/// Path: field names joined by '.', each optionally indexed: "memory.l2_bytes", "nvlinks[0].link_count",
/// "nvswitch.gpus[2]". A repeated message field without an index applies the rest of the path to every element;
/// a repeated scalar needs an index.
///
/// Throws std::invalid_argument saying what is wrong (unknown field, bad index, bad value, a message as the leaf).
void set_field(google::protobuf::Message& message, std::string_view path, std::string_view value);

}  // namespace warpsim::platform

#include "outputs/proto_json.h"

namespace warpsim::report {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

nlohmann::json scalar(const Message& message, const FieldDescriptor* field) {
  const Reflection* r = message.GetReflection();
  switch (field->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32: return r->GetInt32(message, field);
    case FieldDescriptor::CPPTYPE_INT64: return r->GetInt64(message, field);
    case FieldDescriptor::CPPTYPE_UINT32: return r->GetUInt32(message, field);
    case FieldDescriptor::CPPTYPE_UINT64: return r->GetUInt64(message, field);
    case FieldDescriptor::CPPTYPE_DOUBLE: return r->GetDouble(message, field);
    case FieldDescriptor::CPPTYPE_FLOAT: return r->GetFloat(message, field);
    case FieldDescriptor::CPPTYPE_BOOL: return r->GetBool(message, field);
    case FieldDescriptor::CPPTYPE_STRING: return r->GetString(message, field);
    case FieldDescriptor::CPPTYPE_ENUM: {
      const auto* value = field->enum_type()->FindValueByNumber(r->GetEnumValue(message, field));
      return value ? nlohmann::json(value->name()) : nlohmann::json(r->GetEnumValue(message, field));
    }
    case FieldDescriptor::CPPTYPE_MESSAGE: return proto_to_json(r->GetMessage(message, field));
  }
  return nullptr;
}

nlohmann::json repeated_element(const Message& message, const FieldDescriptor* field, int index) {
  const Reflection* r = message.GetReflection();
  switch (field->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32: return r->GetRepeatedInt32(message, field, index);
    case FieldDescriptor::CPPTYPE_INT64: return r->GetRepeatedInt64(message, field, index);
    case FieldDescriptor::CPPTYPE_UINT32: return r->GetRepeatedUInt32(message, field, index);
    case FieldDescriptor::CPPTYPE_UINT64: return r->GetRepeatedUInt64(message, field, index);
    case FieldDescriptor::CPPTYPE_DOUBLE: return r->GetRepeatedDouble(message, field, index);
    case FieldDescriptor::CPPTYPE_FLOAT: return r->GetRepeatedFloat(message, field, index);
    case FieldDescriptor::CPPTYPE_BOOL: return r->GetRepeatedBool(message, field, index);
    case FieldDescriptor::CPPTYPE_STRING: return r->GetRepeatedString(message, field, index);
    case FieldDescriptor::CPPTYPE_ENUM: return r->GetRepeatedEnum(message, field, index)->name();
    case FieldDescriptor::CPPTYPE_MESSAGE: return proto_to_json(r->GetRepeatedMessage(message, field, index));
  }
  return nullptr;
}

// A map field is a repeated message of {key, value}: print it as an object keyed by the key's text.
nlohmann::json map_field(const Message& message, const FieldDescriptor* field) {
  nlohmann::json object = nlohmann::json::object();
  const Reflection* r = message.GetReflection();
  for (int i = 0; i < r->FieldSize(message, field); ++i) {
    const Message& entry = r->GetRepeatedMessage(message, field, i);
    const FieldDescriptor* key = entry.GetDescriptor()->map_key();
    const FieldDescriptor* value = entry.GetDescriptor()->map_value();
    const nlohmann::json key_json = scalar(entry, key);
    object[key_json.is_string() ? key_json.get<std::string>() : key_json.dump()] = scalar(entry, value);
  }
  return object;
}

}  // namespace

nlohmann::json proto_to_json(const Message& message) {
  nlohmann::json object = nlohmann::json::object();
  const auto* descriptor = message.GetDescriptor();
  const Reflection* r = message.GetReflection();
  for (int f = 0; f < descriptor->field_count(); ++f) {
    const FieldDescriptor* field = descriptor->field(f);
    if (field->is_map()) {
      object[field->name()] = map_field(message, field);
    } else if (field->is_repeated()) {
      nlohmann::json array = nlohmann::json::array();
      for (int i = 0; i < r->FieldSize(message, field); ++i) array.push_back(repeated_element(message, field, i));
      object[field->name()] = std::move(array);
    } else if (!field->has_presence() || r->HasField(message, field)) {
      // Fields without presence (plain proto3 scalars such as a device id) always print, 0 included; optional
      // fields, messages and oneof members only when set.
      object[field->name()] = scalar(message, field);
    }
  }
  return object;
}

}  // namespace warpsim::report

#include "field_setter.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <google/protobuf/descriptor.h>

#include "scalar_parse.h"

namespace warpsim::platform {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

struct Segment {
  std::string name;
  std::optional<int> index;
};

Segment parse_segment(std::string_view text) {
  const std::size_t open = text.find('[');
  if (text.empty() || open == 0) throw std::invalid_argument("empty field name in the path");
  if (open == std::string_view::npos) return {std::string(text), std::nullopt};
  if (text.back() != ']') throw std::invalid_argument("\"" + std::string(text) + "\": expected NAME[INDEX]");
  const std::string_view digits = text.substr(open + 1, text.size() - open - 2);
  const auto max_index = static_cast<std::uint64_t>(std::numeric_limits<int>::max());
  return {std::string(text.substr(0, open)), static_cast<int>(parse_unsigned(digits, max_index))};
}

std::vector<Segment> parse_path(std::string_view path) {
  std::vector<Segment> segments;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    segments.push_back(parse_segment(path.substr(start, dot == std::string_view::npos ? dot : dot - start)));
    if (dot == std::string_view::npos) return segments;
    start = dot + 1;
  }
}

const FieldDescriptor& find_field(const Descriptor& type, const std::string& name) {
  if (const FieldDescriptor* field = type.FindFieldByName(name)) return *field;
  std::string known;
  for (int i = 0; i < type.field_count(); ++i) known += (i == 0 ? "" : ", ") + type.field(i)->name();
  throw std::invalid_argument(type.name() + " has no field \"" + name + "\" (it has: " + known + ")");
}

/// The element a repeated field's index picks, checked against the field's size.
int checked_index(const Message& message, const FieldDescriptor& field, int index) {
  const int size = message.GetReflection()->FieldSize(message, &field);
  if (index >= size) {
    throw std::invalid_argument(field.name() + "[" + std::to_string(index) + "]: out of range (" + field.name() +
                                " has " + std::to_string(size) + " elements)");
  }
  return index;
}

void set_enum(Message& message, const FieldDescriptor& field, int index, std::string_view value) {
  const auto* enum_value = field.enum_type()->FindValueByName(std::string(value));
  if (enum_value == nullptr)
    throw std::invalid_argument("\"" + std::string(value) + "\" is not a value of " + field.enum_type()->name());
  const Reflection& reflection = *message.GetReflection();
  if (index < 0)
    reflection.SetEnum(&message, &field, enum_value);
  else
    reflection.SetRepeatedEnum(&message, &field, index, enum_value);
}

/// Sets a scalar; index -1 for a singular field, else the repeated element.
void set_scalar(Message& message, const FieldDescriptor& field, int index, std::string_view value) {
  const Reflection& r = *message.GetReflection();
  const bool one = index < 0;
  switch (field.cpp_type()) {
    case FieldDescriptor::CPPTYPE_DOUBLE: {
      const double v = parse_finite_double(value);
      return one ? r.SetDouble(&message, &field, v) : r.SetRepeatedDouble(&message, &field, index, v);
    }
    case FieldDescriptor::CPPTYPE_FLOAT: {
      const auto v = static_cast<float>(parse_finite_double(value));
      return one ? r.SetFloat(&message, &field, v) : r.SetRepeatedFloat(&message, &field, index, v);
    }
    case FieldDescriptor::CPPTYPE_UINT32: {
      const auto v = static_cast<std::uint32_t>(parse_unsigned(value, std::numeric_limits<std::uint32_t>::max()));
      return one ? r.SetUInt32(&message, &field, v) : r.SetRepeatedUInt32(&message, &field, index, v);
    }
    case FieldDescriptor::CPPTYPE_UINT64: {
      const std::uint64_t v = parse_unsigned(value, std::numeric_limits<std::uint64_t>::max());
      return one ? r.SetUInt64(&message, &field, v) : r.SetRepeatedUInt64(&message, &field, index, v);
    }
    case FieldDescriptor::CPPTYPE_INT32: {
      const auto v = static_cast<std::int32_t>(
          parse_signed(value, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()));
      return one ? r.SetInt32(&message, &field, v) : r.SetRepeatedInt32(&message, &field, index, v);
    }
    case FieldDescriptor::CPPTYPE_INT64: {
      const std::int64_t v =
          parse_signed(value, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max());
      return one ? r.SetInt64(&message, &field, v) : r.SetRepeatedInt64(&message, &field, index, v);
    }
    case FieldDescriptor::CPPTYPE_BOOL: {
      const bool v = parse_bool(value);
      return one ? r.SetBool(&message, &field, v) : r.SetRepeatedBool(&message, &field, index, v);
    }
    case FieldDescriptor::CPPTYPE_STRING: {
      const std::string v(value);
      return one ? r.SetString(&message, &field, v) : r.SetRepeatedString(&message, &field, index, v);
    }
    case FieldDescriptor::CPPTYPE_ENUM: return set_enum(message, field, index, value);
    case FieldDescriptor::CPPTYPE_MESSAGE: break;
  }
  throw std::invalid_argument(field.name() + " is a message (" + field.message_type()->name() +
                              "); set one of its fields: " + field.name() + ".FIELD=VALUE");
}

void set_leaf(Message& message, const FieldDescriptor& field, const Segment& segment, std::string_view value) {
  if (!field.is_repeated()) return set_scalar(message, field, -1, value);
  if (!segment.index) {
    throw std::invalid_argument(field.name() + " is repeated; pick an element: " + field.name() + "[0]");
  }
  set_scalar(message, field, checked_index(message, field, *segment.index), value);
}

void set_along(Message& message, std::span<const Segment> path, std::string_view value);

/// Descends into the message field of `segment` (every element of a repeated one without an index).
void descend(Message& message, const FieldDescriptor& field, const Segment& segment, std::span<const Segment> rest,
             std::string_view value) {
  const Reflection& reflection = *message.GetReflection();
  if (field.cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) {
    throw std::invalid_argument(field.name() + " is not a message; it has no field \"" + rest.front().name + "\"");
  }
  if (!field.is_repeated()) return set_along(*reflection.MutableMessage(&message, &field), rest, value);
  if (segment.index) {
    const int index = checked_index(message, field, *segment.index);
    return set_along(*reflection.MutableRepeatedMessage(&message, &field, index), rest, value);
  }
  const int size = reflection.FieldSize(message, &field);
  if (size == 0) throw std::invalid_argument(field.name() + " has no elements to set");
  for (int i = 0; i < size; ++i) set_along(*reflection.MutableRepeatedMessage(&message, &field, i), rest, value);
}

void set_along(Message& message, std::span<const Segment> path, std::string_view value) {
  const Segment& segment = path.front();
  const FieldDescriptor& field = find_field(*message.GetDescriptor(), segment.name);
  if (segment.index && !field.is_repeated()) {
    throw std::invalid_argument(field.name() + " is not repeated; drop the [" + std::to_string(*segment.index) + "]");
  }
  if (path.size() == 1) return set_leaf(message, field, segment, value);
  descend(message, field, segment, path.subspan(1), value);
}

}  // namespace

void set_field(Message& message, std::string_view path, std::string_view value) {
  const std::vector<Segment> segments = parse_path(path);
  set_along(message, segments, value);
}

}  // namespace warpsim::platform

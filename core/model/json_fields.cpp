#include "model/json_fields.hpp"

#include <cmath>

#include "model/message_list.hpp"

namespace geotrain {

namespace {

const char* type_name(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::boolean: return "a boolean";
    case nlohmann::json::value_t::string: return "a string";
    case nlohmann::json::value_t::array: return "an array";
    case nlohmann::json::value_t::object: return "an object";
    default: return "a number";
  }
}

bool in_range(double x, Range range) {
  switch (range) {
    case Range::positive: return x > 0;
    case Range::non_negative: return x >= 0;
    case Range::unit_open_closed: return x > 0 && x <= 1;
    case Range::unit_closed: return x >= 0 && x <= 1;
    case Range::any: return true;
  }
  return true;
}

const char* range_rule(Range range) {
  switch (range) {
    case Range::positive: return "must be > 0";
    case Range::non_negative: return "must be >= 0";
    case Range::unit_open_closed: return "must be in (0, 1]";
    case Range::unit_closed: return "must be in [0, 1]";
    case Range::any: return "must be a number";
  }
  return "";
}

}  // namespace

std::string FieldReader::describe(const json& value) {
  // 50.0 reads better as 50 in a message; JSON does not tell them apart.
  if (value.is_number_float()) {
    const double x = value.get<double>();
    if (std::isfinite(x) && std::floor(x) == x && std::fabs(x) < 1e15) return std::to_string(static_cast<long long>(x));
  }
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  constexpr std::size_t kMax = 60;
  if (text.size() > kMax) text = text.substr(0, kMax) + "...";
  return text;
}

void FieldReader::error(const std::string& path, const std::string& message) {
  ++error_count_;
  add_capped(errors_, path + ": " + message);
}

void FieldReader::warning(const std::string& path, const std::string& message) {
  add_capped(warnings_, path + ": " + message);
}

bool FieldReader::open_object(const json& value, const std::string& path, std::initializer_list<const char*> known) {
  if (!value.is_object()) {
    error(path.empty() ? "(document)" : path, std::string("must be an object, got ") + type_name(value));
    return false;
  }
  for (const auto& item : value.items()) {
    bool is_known = false;
    for (const char* k : known) is_known = is_known || item.key() == k;
    if (!is_known) warning(field_path(path, item.key().c_str()), "unknown field, ignored");
  }
  return true;
}

const nlohmann::json* FieldReader::field(const json& object, const std::string& path, const char* key,
                                         bool required) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    if (required) error(field_path(path, key), "required");
    return nullptr;
  }
  return &*it;
}

std::optional<double> FieldReader::number(const json& object, const std::string& path, const char* key,
                                          bool required, Range range) {
  const json* value = field(object, path, key, required);
  if (!value) return std::nullopt;
  if (!value->is_number()) {
    error(field_path(path, key), std::string("must be a number, got ") + type_name(*value) + " " + describe(*value));
    return std::nullopt;
  }
  const double x = value->get<double>();
  if (!std::isfinite(x) || !in_range(x, range)) {
    error(field_path(path, key), std::string(range_rule(range)) + ", got " + describe(*value));
    return std::nullopt;
  }
  return x;
}

std::optional<std::int64_t> FieldReader::integer(const json& object, const std::string& path, const char* key,
                                                 bool required, std::int64_t min, std::int64_t max) {
  const json* value = field(object, path, key, required);
  if (!value) return std::nullopt;
  const std::string where = field_path(path, key);
  if (!value->is_number()) {
    error(where, std::string("must be an integer, got ") + type_name(*value) + " " + describe(*value));
    return std::nullopt;
  }
  const double x = value->get<double>();
  if (!std::isfinite(x) || std::floor(x) != x) {
    error(where, "must be an integer, got " + describe(*value));
    return std::nullopt;
  }
  if (x < static_cast<double>(min) || x > static_cast<double>(max)) {
    error(where, "must be in [" + std::to_string(min) + ", " + std::to_string(max) + "], got " + describe(*value));
    return std::nullopt;
  }
  if (value->is_number_unsigned()) return static_cast<std::int64_t>(value->get<std::uint64_t>());
  if (value->is_number_integer()) return value->get<std::int64_t>();
  return static_cast<std::int64_t>(x);
}

std::optional<std::string> FieldReader::string(const json& object, const std::string& path, const char* key,
                                               bool required) {
  const json* value = field(object, path, key, required);
  if (!value) return std::nullopt;
  if (!value->is_string()) {
    error(field_path(path, key), std::string("must be a string, got ") + type_name(*value) + " " + describe(*value));
    return std::nullopt;
  }
  return value->get<std::string>();
}

const nlohmann::json* FieldReader::array(const json& object, const std::string& path, const char* key,
                                         bool required) {
  const json* value = field(object, path, key, required);
  if (!value) return nullptr;
  if (!value->is_array()) {
    error(field_path(path, key), std::string("must be an array, got ") + type_name(*value));
    return nullptr;
  }
  return value;
}

}  // namespace geotrain

#pragma once
// Reads typed fields out of JSON objects, naming each field by its path and
// collecting every error instead of stopping at the first.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace geotrain {

// The rule a number must satisfy; each prints as the message's "must be ..." part.
enum class Range { any, positive, non_negative, unit_open_closed /* (0, 1] */, unit_closed /* [0, 1] */ };

class FieldReader {
 public:
  using json = nlohmann::json;

  // Opens the object at `path`; records an error and returns false when it is not one.
  // Keys not in `known` become warnings ("unknown field"), so typos do not pass silently.
  bool open_object(const json& value, const std::string& path, std::initializer_list<const char*> known);

  std::optional<double> number(const json& object, const std::string& path, const char* key, bool required,
                               Range range);
  // An integer in [min, max]; 12.0 is accepted, 12.5 is not.
  std::optional<std::int64_t> integer(const json& object, const std::string& path, const char* key, bool required,
                                      std::int64_t min, std::int64_t max);
  std::optional<std::string> string(const json& object, const std::string& path, const char* key, bool required);
  // Present and of type array; an error otherwise (or when required and missing).
  const json* array(const json& object, const std::string& path, const char* key, bool required);

  // Both lists keep their first kListedMessages entries and then one line
  // "... and N more" (message_list.hpp): a file of a million faults costs no
  // more memory than one of a hundred.
  void error(const std::string& path, const std::string& message);
  void warning(const std::string& path, const std::string& message);
  const std::vector<std::string>& errors() const { return errors_; }
  const std::vector<std::string>& warnings() const { return warnings_; }
  // Every error recorded, listed or not: compare counts to see whether a step added one.
  std::size_t error_count() const { return error_count_; }

  // A short rendering of a JSON value for messages: numbers and strings as
  // written, long text cut to keep messages one line.
  static std::string describe(const json& value);

 private:
  const json* field(const json& object, const std::string& path, const char* key, bool required);
  std::vector<std::string> errors_;
  std::vector<std::string> warnings_;
  std::size_t error_count_ = 0;
};

inline std::string field_path(const std::string& parent, const char* key) {
  return parent.empty() ? std::string(key) : parent + "." + key;
}
inline std::string index_path(const std::string& parent, std::size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

}  // namespace geotrain

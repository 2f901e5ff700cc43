#include "conversions.hpp"

#include "api/api.hpp"
#include "model/problem_json.hpp"

namespace geotrain::wasm {

std::string error_text(const std::exception& e) { return error_to_json(e).dump(); }

std::string unknown_error_text() {
  return nlohmann::json{{"error", {{"kind", "internal"}, {"messages", {"unknown exception"}}}}}.dump();
}

nlohmann::json parse_options_text(const std::string& options_text) {
  if (options_text.empty()) return nullptr;
  return parse_json_text(options_text, "options");
}

}  // namespace geotrain::wasm

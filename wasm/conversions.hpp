#pragma once
// What crosses the Embind boundary: JSON text both ways. Every call is wrapped
// so that an exception becomes an {"error": ...} document instead of aborting
// the module (and with it the page's worker).
#include <string>

#include <nlohmann/json.hpp>

namespace geotrain::wasm {

std::string error_text(const std::exception& e);
std::string unknown_error_text();

// Options text ("" or "null" mean none) as JSON; throws InputError naming `options`.
nlohmann::json parse_options_text(const std::string& options_text);

template <typename Call>
std::string json_or_error(Call call) {
  try {
    return call().dump();
  } catch (const std::exception& e) {
    return error_text(e);
  } catch (...) {
    return unknown_error_text();
  }
}

}  // namespace geotrain::wasm

// The module's whole JavaScript surface. No logic here: each function parses
// nothing itself and hands JSON text to the same core calls the CLI makes.
#include <emscripten/bind.h>

#include "api.hpp"
#include "conversions.hpp"
#include "gpu_catalogue.hpp"
#include "problem_json.hpp"

namespace {

using geotrain::wasm::json_or_error;
using geotrain::wasm::parse_options_text;

std::string evaluate(const std::string& problem, const std::string& plan) {
  return json_or_error([&] { return geotrain::evaluate_request(problem, plan); });
}

std::string solve(const std::string& problem, const std::string& options) {
  return json_or_error(
      [&] { return geotrain::solve_request(problem, geotrain::parse_solve_options(parse_options_text(options))); });
}

std::string validate(const std::string& problem) {
  return json_or_error([&] { return geotrain::validate_request(problem); });
}

std::string catalogue() {
  return json_or_error([] { return geotrain::catalogue_json(); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(geotrain) {
  emscripten::function("evaluate", &evaluate);
  emscripten::function("solve", &solve);
  emscripten::function("validate", &validate);
  emscripten::function("catalogue", &catalogue);
}

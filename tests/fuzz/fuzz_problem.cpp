// libFuzzer target for the parsers, through the JSON API the CLI and the page
// call: the input is a problem file, optionally followed by a NUL byte and a
// plan file. Bad input must come back as InputError or PlanningError, never
// as a crash, a sanitizer report, another exception or a hang; an accepted
// problem must give finite figures. Built and run by tests/fuzz/run.sh.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "api/api.hpp"
#include "api/measure_request.hpp"
#include "model/input_error.hpp"
#include "model/message_list.hpp"
#include "model/problem_json.hpp"

namespace {

void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_problem: %s\n", what);
  std::abort();
}

bool finite_figure(const nlohmann::ordered_json& out, const char* key) {
  return out.contains(key) && out[key].is_number() && std::isfinite(out[key].get<double>());
}

// Runs one request; the exceptions bad input may raise are its answers.
template <typename Request>
void answer(Request request) {
  try {
    request();
  } catch (const geotrain::InputError& e) {
    require(!e.messages().empty() && e.messages().size() <= geotrain::kListedMessages + 1, "unlisted or uncapped errors");
    geotrain::error_to_json(e);
  } catch (const geotrain::PlanningError& e) {
    geotrain::error_to_json(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_problem: unexpected exception: %s\n", e.what());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  const std::string problem = input.substr(0, nul);
  const std::string plan = nul == std::string::npos ? R"({"stages": []})" : input.substr(nul + 1);

  answer([&] { geotrain::validate_request(problem); });
  // Issue 26: the input as a tool's output to import, and the plan as a measured run of it.
  answer([&] { geotrain::import_request("", {{"input.txt", problem}}, {}); });
  answer([&] { geotrain::calibrate_request(problem, {{"plan.json", plan, 1000, "given"}}); });
  answer([&] { geotrain::evaluate_request(problem, plan); });
  answer([&] { geotrain::parse_solve_options(geotrain::parse_json_text(plan, "options")); });
  answer([&] {
    geotrain::SolveOptions uniform;
    uniform.method = geotrain::Method::uniform;
    const auto out = geotrain::solve_request(problem, uniform);
    for (const char* key : {"iteration_ms", "energy_j", "objective"}) require(finite_figure(out, key), key);
  });
  return 0;
}

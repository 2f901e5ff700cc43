// The module's whole JavaScript surface. No logic here: each function parses
// nothing itself and hands JSON text to the same core calls the CLI makes.
#include <emscripten/bind.h>

#include "api/api.hpp"
#include "api/launch_request.hpp"
#include "api/measure_request.hpp"
#include "api/planning_session.hpp"
#include "api/robustness_request.hpp"
#include "api/simulate_request.hpp"
#include "conversions.hpp"
#include "model/gpu_catalogue.hpp"
#include "model/problem_json.hpp"
#include "model/region_catalogue.hpp"
#include "studies/studies.hpp"

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

std::string launch(const std::string& problem, const std::string& plan, const std::string& target) {
  return json_or_error([&] { return geotrain::launch_request(problem, plan, target); });
}

// A plan's 1F1B schedule simulated event by event (core/sim/, `geotrain simulate`).
std::string simulate(const std::string& problem, const std::string& plan, const std::string& options) {
  return json_or_error([&] {
    return geotrain::simulate_request(problem, plan, geotrain::parse_simulate_options(parse_options_text(options)));
  });
}

// The planner's best few plans under jittered links and a straggling GPU (`geotrain robustness`).
std::string robustness(const std::string& problem, const std::string& options) {
  return json_or_error([&] {
    return geotrain::robustness_request(problem, geotrain::parse_robustness_options(parse_options_text(options)));
  });
}

// Tool outputs merged into a problem (problem text may be empty: a new one), and compute
// utilisations fitted to measured runs (core/measure/).
std::string import_measured(const std::string& problem, const std::string& files, const std::string& options) {
  return json_or_error([&] { return geotrain::import_request_json(problem, files, options); });
}

std::string calibrate(const std::string& problem, const std::string& runs) {
  return json_or_error([&] { return geotrain::calibrate_request_json(problem, runs); });
}

std::string catalogue() {
  return json_or_error([] { return geotrain::catalogue_json(); });
}

// Grid carbon, PUE and electricity price per cloud region and country: suggestions for `sites`.
std::string regions() {
  return json_or_error([] { return geotrain::region_catalogue_json(); });
}

// A study's jobs (each solved by `solve` in some worker) and the summary of
// whatever results came back (core/STUDIES.md).
std::string study_jobs(const std::string& problem, const std::string& options) {
  return json_or_error(
      [&] { return geotrain::study_jobs(problem, geotrain::parse_json_text(options, "study")); });
}

std::string summarise_study(const std::string& problem, const std::string& options, const std::string& results) {
  return json_or_error([&] {
    return geotrain::summarise_study(problem, geotrain::parse_json_text(options, "study"),
                                     geotrain::parse_json_text(results, "results"));
  });
}

// A planning run the worker advances slice by slice. The constructor never
// throws: a bad problem is kept as an error that every call reports.
class Planner {
 public:
  Planner(const std::string& problem, const std::string& options) {
    error_ = json_or_error([&]() -> nlohmann::json {
      session_ = std::make_unique<geotrain::PlanningSession>(
          problem, geotrain::parse_solve_options(parse_options_text(options)));
      return nullptr;
    });
    if (error_ == "null") error_.clear();
  }
  std::string error() const { return error_; }
  std::string step(double budget_ms) {
    if (!session_) return error_;
    return json_or_error([&] {
      session_->step(budget_ms);
      return session_->progress_json();
    });
  }
  // As step, and a method that runs in one go (exact) calls on_progress with
  // each snapshot's JSON text meanwhile; a false answer cancels it.
  std::string step_reporting(double budget_ms, emscripten::val on_progress) {
    if (!session_) return error_;
    return json_or_error([&] {
      session_->step(budget_ms, [&](const geotrain::Progress& p) {
        const std::string text = geotrain::progress_to_json(p, session_->problem()).dump();
        return !on_progress(text).isFalse();
      });
      return session_->progress_json();
    });
  }
  void cancel() {
    if (session_) session_->cancel();
  }
  bool done() const { return !session_ || session_->done(); }
  std::string result() const {
    if (!session_) return error_;
    return json_or_error([&] { return session_->result_json(); });
  }

 private:
  std::unique_ptr<geotrain::PlanningSession> session_;
  std::string error_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(geotrain) {
  emscripten::function("evaluate", &evaluate);
  emscripten::function("solve", &solve);
  emscripten::function("validate", &validate);
  emscripten::function("catalogue", &catalogue);
  emscripten::function("regions", &regions);
  emscripten::function("launch", &launch);
  emscripten::function("simulate", &simulate);
  emscripten::function("robustness", &robustness);
  emscripten::function("importMeasured", &import_measured);
  emscripten::function("calibrate", &calibrate);
  emscripten::function("studyJobs", &study_jobs);
  emscripten::function("summariseStudy", &summarise_study);
  emscripten::class_<Planner>("Planner")
      .constructor<std::string, std::string>()
      .function("error", &Planner::error)
      .function("step", &Planner::step)
      .function("stepReporting", &Planner::step_reporting)
      .function("cancel", &Planner::cancel)
      .function("done", &Planner::done)
      .function("result", &Planner::result);
}

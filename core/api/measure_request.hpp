#pragma once
// `geotrain import` and `geotrain calibrate` (core/measure/), JSON out, for
// the CLI and the wasm module alike.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "measure/calibrate.hpp"
#include "measure/import.hpp"

namespace geotrain {

// {"problem": the merged problem, "changes": [{"path", "what", "before", "after", "source"}],
//  "files": [{"name", "format", "summary"}], "warnings": [...]}. Throws InputError.
nlohmann::ordered_json import_request(const std::string& problem_text, const std::vector<measure::MeasuredFile>& files,
                                      const measure::ImportOptions& options);
// The same from JSON text: files [{"name", "text"}], options {"host", "site"} (both optional).
nlohmann::ordered_json import_request_json(const std::string& problem_text, const std::string& files_json,
                                           const std::string& options_json);

// {"problem", "fit": {"method", "rms_error", "determined", "evaluations",
//  "types": [{"type", "gpus", "compute_util_before": [min, max], "compute_util", "bound"}],
//  "runs": [{"name", "how", "measured_ms", "model_ms_before", "model_ms", "error"}]},
//  "changes", "warnings"}. Throws InputError.
nlohmann::ordered_json calibrate_request(const std::string& problem_text, const std::vector<measure::MeasuredRun>& runs);
// The same from JSON text: runs [{"name", "plan" (a plan object or its text),
// and "iteration_ms" or "log" (a Megatron-LM log's text, with "log_name")}].
nlohmann::ordered_json calibrate_request_json(const std::string& problem_text, const std::string& runs_json);

}  // namespace geotrain

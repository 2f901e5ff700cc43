#pragma once
// JSON text in, JSON document out: the one layer both the CLI and the
// WebAssembly module call, so that both print the same figures.
#include <string>

#include <nlohmann/json.hpp>

#include "api/planner.hpp"

namespace geotrain {

// `geotrain evaluate`: the plan's report plus the objective's settings.
// Throws InputError on a malformed problem or plan.
nlohmann::ordered_json evaluate_request(const std::string& problem_text, const std::string& plan_text);

// `geotrain solve`: the best plan found, its figures and the search's own.
// Throws InputError or PlanningError.
nlohmann::ordered_json solve_request(const std::string& problem_text, const SolveOptions& options,
                             const ProgressCallback& progress = {});

// {"method": "memetic", "seed": 1, "lambda": 0.5, "time_limit_s": 2, "max_nodes": 1e7, "stage_count": 3,
//  "parallelism": "hybrid"};
// every field optional. Throws InputError naming the field.
SolveOptions parse_solve_options(const nlohmann::json& options);

// The JSON a solve result prints as, figured with the model the method ran on.
nlohmann::ordered_json solve_result_to_json(const PreparedProblem& prepared, const SolveResult& result,
                                            const std::vector<std::string>& warnings);

// A progress snapshot as JSON: generation, evaluations, elapsed_ms and, when
// there is one, the best plan with its iteration_ms, energy_j and objective.
nlohmann::ordered_json progress_to_json(const Progress& progress, const Problem& problem);

// `geotrain validate`: {"problem": the problem with every default and
// catalogue value written out, "warnings": [...]}. Throws InputError.
nlohmann::ordered_json validate_request(const std::string& problem_text);

// The built-in GPU catalogue: [{"type", "fp16_tflops", "bf16_tflops", "fp32_tflops",
// "memory_gib", "idle_w", "active_w", "source", "price_per_hour", "price_source"}, ...]
// (prices are suggestions for the editor, never filled into a problem).
nlohmann::ordered_json catalogue_json();

// {"error": {"kind": "input"|"planning"|"internal", "messages": [...]}}
nlohmann::ordered_json error_to_json(const std::exception& error);

}  // namespace geotrain

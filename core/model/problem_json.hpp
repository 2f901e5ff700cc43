#pragma once
// Problem files: parsing with validation (all errors at once, each naming its
// field) and writing back.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/problem.hpp"

namespace geotrain {

struct ParsedProblem {
  Problem problem;
  std::vector<std::string> warnings;  // unknown fields and similar non-fatal notes
};

// Throws InputError listing every problem found; never aborts on any input.
ParsedProblem parse_problem(const nlohmann::json& document);
ParsedProblem parse_problem_text(const std::string& text);

// The problem with every default and catalogue value written out.
nlohmann::json problem_to_json(const Problem& problem);

// search.rank_by's names: "analytic", "simulated", "simulated_overlapped".
const char* rank_by_name(RankBy rank_by);
std::optional<RankBy> rank_by_from_name(const std::string& name);

// Parses JSON text; throws InputError("<what>: not valid JSON: ...") on bad text.
nlohmann::json parse_json_text(const std::string& text, const std::string& what);

}  // namespace geotrain

#pragma once
// What the CLI prints: JSON on standard output, messages on standard error.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace geotrain::cli {

// Exit codes: 0 done; 1 bad input (problem, plan or option values); 2 bad
// usage; 3 no plan (nothing feasible, or the method refused); 4 exact ran out
// of budget before proving optimality (the best plan and what is proven are
// still printed); 70 a bug.
constexpr int kExitInput = 1, kExitUsage = 2, kExitNoPlan = 3, kExitUnproven = 4, kExitBug = 70;

// One line per message, capped (message_list.hpp): the first 100, then "... and N more".
void print_messages(const char* prefix, const std::vector<std::string>& messages);
// The document's "warnings", if any, as "warning: ..." lines.
void print_warnings(const nlohmann::ordered_json& document);
// The document, indented, then its warnings; returns 0.
int print(const nlohmann::ordered_json& document);

}  // namespace geotrain::cli

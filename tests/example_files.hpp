#pragma once
// The project's example problems, for tests that plan them: their text, and
// the 64-A100 example's hand plan (one 8-way tensor-parallel stage of 10
// layers per node, in file order: about 166 s per iteration).
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace geotrain::testing {

inline std::string read_example(const std::string& name) {
  std::ifstream in(std::string(GEOTRAIN_EXAMPLES_DIR) + "/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline nlohmann::json one_stage_per_node_plan(const std::string& problem_text) {
  nlohmann::json stages = nlohmann::json::array();
  const auto doc = nlohmann::json::parse(problem_text);
  for (std::size_t n = 0; n < 8; ++n) {
    nlohmann::json ids = nlohmann::json::array();
    for (std::size_t k = 0; k < 8; ++k) ids.push_back(doc["gpus"][n * 8 + k]["id"]);
    stages.push_back({{"gpus", ids}, {"tensor_parallel", 8}, {"layers", 10}});
  }
  return {{"stages", stages}};
}

}  // namespace geotrain::testing

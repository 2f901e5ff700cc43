#pragma once
// `geotrain launch`: the launch bundle of a plan, JSON in and out like every
// api/ request. The bundle has the rank map (rank_map.hpp), what it assumed,
// and per engine either the text that runs the plan or the statements of why
// it cannot ("cannot express because ...") with the nearest plan that can.
#include <string>

#include <nlohmann/json.hpp>

namespace geotrain {

// target: "megatron", "torch", "deepspeed", "flashflex" or "all". Throws InputError on a
// malformed problem, plan or target.
nlohmann::ordered_json launch_request(const std::string& problem_text, const std::string& plan_text,
                                      const std::string& target = "all");

}  // namespace geotrain

#pragma once
// The objective, site and run fields of a problem file (cost-model.md's
// `objective`, objectives.md's `weights`, `sites`, `training`): reading with
// every fault named by its field, and writing them back the same way.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/gpu.hpp"
#include "model/problem.hpp"

namespace geotrain {

class FieldReader;

Objective read_objective(FieldReader& r, const nlohmann::json& doc);
// `parent`.weights, named under `parent_path` ("objective", "options").
std::optional<ObjectiveWeights> read_weights(FieldReader& r, const nlohmann::json& parent, const std::string& parent_path);
// Keys must name a site some GPU is on ("" for GPUs without a site).
std::map<std::string, SiteFigures> read_sites(FieldReader& r, const nlohmann::json& doc, const std::vector<Gpu>& gpus);
Training read_training(FieldReader& r, const nlohmann::json& doc);

// What problem_to_json writes: only the fields the problem has (old files stay as they were).
nlohmann::json objective_to_json(const Objective& objective);
nlohmann::json sites_to_json(const std::map<std::string, SiteFigures>& sites);
nlohmann::json weights_to_json(const ObjectiveWeights& weights);

// Upper bounds on the new numbers, far beyond any real grid, facility or price.
struct ObjectiveLimits {
  static constexpr double kMaxCarbonGPerKwh = 1e4;  // ten times the dirtiest coal plant
  static constexpr double kMaxPue = 10;
  static constexpr double kMaxPricePerKwh = 1e3;
  static constexpr double kMaxPricePerHour = 1e6;
  static constexpr double kMaxWeight = 1e6;
  static constexpr std::int64_t kMaxIterations = 1'000'000'000'000;  // 1e12
};

}  // namespace geotrain

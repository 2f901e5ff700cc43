#include "model/plan_json.hpp"

#include <map>

#include "model/input_error.hpp"
#include "model/json_fields.hpp"

namespace geotrain {

using nlohmann::json;

Plan parse_plan(const json& document, const Problem& problem) {
  FieldReader r;
  Plan plan;
  if (!document.is_object()) throw InputError("plan: must be an object with a `stages` array");
  const json* stages = r.array(document, "", "stages", true);
  if (!stages) throw InputError(r.errors());
  const std::int64_t L = problem.model.num_layers;
  if (stages->empty()) r.error("stages", "must hold at least one stage");
  std::map<std::string, int> gpu_index;
  for (std::size_t i = 0; i < problem.gpus.size(); ++i) gpu_index.emplace(problem.gpus[i].id, static_cast<int>(i));
  std::map<int, std::size_t> used_by;
  std::int64_t total_layers = 0;
  bool all_counted = true;
  for (std::size_t q = 0; q < stages->size(); ++q) {
    const std::string p = index_path("stages", q);
    const json& s = (*stages)[q];
    if (!s.is_object()) {
      r.error(p, "must be an object {\"gpu\": id, \"layers\": n}");
      all_counted = false;
      continue;
    }
    auto id = r.string(s, p, "gpu", true);
    auto layers = r.integer(s, p, "layers", true, 1, L);
    Stage stage;
    if (id) {
      auto it = gpu_index.find(*id);
      if (it == gpu_index.end()) {
        r.error(p + ".gpu", "unknown GPU id " + FieldReader::describe(*id));
      } else if (auto [u, fresh] = used_by.emplace(it->second, q); !fresh) {
        r.error(p + ".gpu", "GPU " + FieldReader::describe(*id) + " already holds " + index_path("stages", u->second) +
                                "; each GPU serves at most one stage");
      } else {
        stage.gpu = it->second;
      }
    }
    if (layers) stage.layers = static_cast<int>(*layers), total_layers += *layers;
    else all_counted = false;
    plan.push_back(stage);
  }
  if (all_counted && !stages->empty() && total_layers != L)
    r.error("stages", "layers sum to " + std::to_string(total_layers) + ", must equal model.num_layers (" +
                          std::to_string(L) + ")");
  if (!r.errors().empty()) throw InputError(r.errors());
  return plan;
}

json plan_to_json(const Plan& plan, const Problem& problem) {
  json stages = json::array();
  for (const Stage& s : plan) stages.push_back({{"gpu", problem.gpus[s.gpu].id}, {"layers", s.layers}});
  return {{"stages", stages}};
}

}  // namespace geotrain

#include "model/plan_json.hpp"

#include <map>

#include "model/input_error.hpp"
#include "model/json_fields.hpp"

namespace geotrain {

using nlohmann::json;

namespace {

// Reads one stage's GPUs: `gpu` (one id) or `gpus` (a group). Records every
// fault; returns the indices it could resolve.
std::vector<int> read_stage_gpus(FieldReader& r, const json& s, const std::string& p, const Problem& problem,
                                 const std::map<std::string, int>& gpu_index,
                                 std::map<int, std::string>& used_by) {
  std::vector<int> gpus;
  auto take = [&](const std::string& id, const std::string& path) {
    auto it = gpu_index.find(id);
    if (it == gpu_index.end()) {
      r.error(path, "unknown GPU id " + FieldReader::describe(id));
    } else if (auto [u, fresh] = used_by.emplace(it->second, p); !fresh) {
      r.error(path, "GPU " + FieldReader::describe(id) + " already holds " + u->second +
                        "; each GPU serves at most one stage");
    } else {
      gpus.push_back(it->second);
    }
  };
  if (s.contains("gpus") && s.contains("gpu")) {
    r.error(p, "give either `gpu` (one GPU) or `gpus` (a group), not both");
    return gpus;
  }
  if (!s.contains("gpus")) {
    if (auto id = r.string(s, p, "gpu", true)) take(*id, p + ".gpu");
    return gpus;
  }
  const json* list = r.array(s, p, "gpus", true);
  if (!list) return gpus;
  if (list->empty()) r.error(p + ".gpus", "must list at least one GPU");
  if (list->size() > static_cast<std::size_t>(kMaxGroupGpus)) {
    r.error(p + ".gpus", "a group holds at most " + std::to_string(kMaxGroupGpus) + " GPUs, got " +
                             std::to_string(list->size()));
    return gpus;
  }
  for (std::size_t k = 0; k < list->size(); ++k) {
    const std::string gp = index_path(p + ".gpus", k);
    if (!(*list)[k].is_string()) r.error(gp, "must be a GPU id (a string), got " + FieldReader::describe((*list)[k]));
    else take((*list)[k].get<std::string>(), gp);
  }
  // A group shares one site: its collectives would otherwise cross the wide area.
  for (std::size_t k = 1; k < gpus.size(); ++k) {
    const Gpu& first = problem.gpus[gpus[0]];
    const Gpu& g = problem.gpus[gpus[k]];
    if (g.site != first.site) {
      r.error(p + ".gpus", "a group stays on one site: " + FieldReader::describe(g.id) + " is on site " +
                               FieldReader::describe(g.site) + ", " + FieldReader::describe(first.id) + " on " +
                               FieldReader::describe(first.site));
      break;
    }
  }
  return gpus;
}

}  // namespace

PlanGpuIndex::PlanGpuIndex(const Problem& problem) {
  for (std::size_t i = 0; i < problem.gpus.size(); ++i) gpu_index.emplace(problem.gpus[i].id, static_cast<int>(i));
}

GroupPlan read_plan_stages(FieldReader& r, const json& owner, const std::string& prefix, const Problem& problem,
                           PlanGpuIndex& index) {
  GroupPlan plan;
  const json* stages = r.array(owner, prefix, "stages", true);
  if (!stages) return plan;
  const std::string stages_path = field_path(prefix, "stages");
  const std::int64_t L = problem.model.num_layers, u = problem.model.micro_batch_size;
  if (stages->empty()) r.error(stages_path, "must hold at least one stage");
  std::int64_t total_layers = 0;
  bool all_counted = true;
  for (std::size_t q = 0; q < stages->size(); ++q) {
    const std::string p = index_path(stages_path, q);
    const json& s = (*stages)[q];
    if (!s.is_object()) {
      r.error(p, "must be an object {\"gpu\": id, \"layers\": n} or {\"gpus\": [ids], \"tensor_parallel\": t, \"layers\": n}");
      all_counted = false;
      continue;
    }
    const std::size_t errors_before = r.error_count();
    GroupStage stage;
    stage.gpus = read_stage_gpus(r, s, p, problem, index.gpu_index, index.used_by);
    auto tensor = r.integer(s, p, "tensor_parallel", false, 1, kMaxTensorParallel);
    auto layers = r.integer(s, p, "layers", true, 1, L);
    stage.tensor_parallel = static_cast<int>(tensor.value_or(1));
    const bool group_ok = r.error_count() == errors_before;
    if (group_ok && stage.size() % stage.tensor_parallel != 0) {
      r.error(p + ".tensor_parallel", "must divide the group's " + std::to_string(stage.size()) + " GPU" +
                                          (stage.size() == 1 ? "" : "s") + ", got " +
                                          std::to_string(stage.tensor_parallel));
    } else if (group_ok && u % stage.data_parallel() != 0) {
      r.error(p + ".gpus", std::to_string(stage.data_parallel()) + " data shards (" + std::to_string(stage.size()) +
                               " GPUs / tensor_parallel " + std::to_string(stage.tensor_parallel) +
                               ") must divide model.micro_batch_size (" + std::to_string(u) + ")");
    }
    if (layers) stage.layers = static_cast<int>(*layers), total_layers += *layers;
    else all_counted = false;
    plan.push_back(std::move(stage));
  }
  if (all_counted && !stages->empty() && total_layers != L)
    r.error(stages_path, "layers sum to " + std::to_string(total_layers) + ", must equal model.num_layers (" +
                             std::to_string(L) + ")");
  return plan;
}

GroupPlan parse_group_plan(const json& document, const Problem& problem) {
  FieldReader r;
  if (!document.is_object()) throw InputError("plan: must be an object with a `stages` array");
  PlanGpuIndex index(problem);
  GroupPlan plan = read_plan_stages(r, document, "", problem, index);
  if (!r.errors().empty()) throw InputError(r.errors());
  return plan;
}

Plan parse_plan(const json& document, const Problem& problem) {
  GroupPlan plan = parse_group_plan(document, problem);
  std::vector<std::string> errors;
  for (std::size_t q = 0; q < plan.size(); ++q)
    if (!plan[q].single())
      errors.push_back(index_path("stages", q) + ".gpus: this method plans one GPU per stage (search.parallelism "
                                                 "\"pipeline\"), got a group of " +
                       std::to_string(plan[q].size()));
  if (!errors.empty()) throw InputError(errors);
  return to_pipeline_plan(plan);
}

json plan_to_json(const GroupPlan& plan, const Problem& problem) {
  json stages = json::array();
  for (const GroupStage& s : plan) {
    if (s.single()) {
      stages.push_back({{"gpu", problem.gpus[s.gpus[0]].id}, {"layers", s.layers}});
      continue;
    }
    json ids = json::array();
    for (int g : s.gpus) ids.push_back(problem.gpus[g].id);
    stages.push_back({{"gpus", ids}, {"tensor_parallel", s.tensor_parallel}, {"layers", s.layers}});
  }
  return {{"stages", stages}};
}

json plan_to_json(const Plan& plan, const Problem& problem) { return plan_to_json(to_group_plan(plan), problem); }

std::int64_t parse_plan_micro_batch_size(const nlohmann::json& document, const Problem& problem) {
  if (!document.is_object() || !document.contains("micro_batch_size")) return 0;
  FieldReader r;
  const std::int64_t B = problem.model.global_batch_size;
  const auto u = r.integer(document, "plan", "micro_batch_size", false, 1, B);
  if (u && B % *u != 0)
    r.error("plan.micro_batch_size", "must divide model.global_batch_size (" + std::to_string(B) + "), got " +
                                         std::to_string(*u));
  if (!r.errors().empty()) throw InputError(r.errors());
  return *u;
}

}  // namespace geotrain

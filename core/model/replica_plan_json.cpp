#include "model/replica_plan_json.hpp"

#include "model/input_error.hpp"
#include "model/json_fields.hpp"
#include "model/plan_json.hpp"

namespace geotrain {

using nlohmann::json;

namespace {

// replicas.md: one stage template. Stage counts first, then each stage's layers.
void check_template(FieldReader& r, const ReplicaPlan& plan) {
  const GroupPlan& first = plan.front().stages;
  for (std::size_t k = 1; k < plan.size(); ++k) {
    const GroupPlan& stages = plan[k].stages;
    const std::string p = index_path("replicas", k) + ".stages";
    if (stages.size() != first.size()) {
      r.error(p, "has " + std::to_string(stages.size()) + " stages, replicas[0] has " + std::to_string(first.size()) +
                     ": every replica has the same stages (one stage template)");
      continue;
    }
    for (std::size_t q = 0; q < stages.size(); ++q)
      if (stages[q].layers != first[q].layers)
        r.error(index_path(p, q) + ".layers", "must equal replicas[0].stages[" + std::to_string(q) + "].layers (" +
                                                  std::to_string(first[q].layers) +
                                                  "): stage q of every replica holds the same layers, got " +
                                                  std::to_string(stages[q].layers));
  }
}

ReplicaPlan read_replicas(FieldReader& r, const json& document, const Problem& problem) {
  ReplicaPlan plan;
  const json* list = r.array(document, "", "replicas", true);
  if (!list) return plan;
  if (list->empty()) r.error("replicas", "must list at least one replica");
  if (list->size() > static_cast<std::size_t>(kMaxGpus)) {
    r.error("replicas", "at most " + std::to_string(kMaxGpus) + " replicas, got " + std::to_string(list->size()));
    return plan;
  }
  const std::int64_t M = problem.model.micro_batches();
  PlanGpuIndex index(problem);
  std::int64_t total = 0;
  bool all_counted = true;
  for (std::size_t k = 0; k < list->size(); ++k) {
    const std::string p = index_path("replicas", k);
    const json& item = (*list)[k];
    if (!item.is_object()) {
      r.error(p, "must be an object {\"micro_batches\": m, \"stages\": [...]}");
      all_counted = false;
      continue;
    }
    Replica replica;
    const auto m = r.integer(item, p, "micro_batches", true, 1, M);
    if (m) replica.micro_batches = *m, total += *m;
    else all_counted = false;
    replica.stages = read_plan_stages(r, item, p, problem, index);
    plan.push_back(std::move(replica));
  }
  if (all_counted && !list->empty() && total != M)
    r.error("replicas", "micro_batches sum to " + std::to_string(total) + ", must equal M = " +
                            "model.global_batch_size / micro_batch_size = " + std::to_string(M));
  if (r.error_count() == 0 && !plan.empty()) check_template(r, plan);
  return plan;
}

}  // namespace

bool has_replicas(const json& document) { return document.is_object() && document.contains("replicas"); }

ReplicaPlan parse_replica_plan(const json& document, const Problem& problem) {
  if (!has_replicas(document)) return single_replica(parse_group_plan(document, problem), problem.model.micro_batches());
  FieldReader r;
  if (document.contains("stages"))
    throw InputError("plan: give either `stages` (one pipeline) or `replicas` (copies of it), not both");
  ReplicaPlan plan = read_replicas(r, document, problem);
  if (!r.errors().empty()) throw InputError(r.errors());
  return plan;
}

json replica_plan_to_json(const ReplicaPlan& plan, const Problem& problem) {
  json replicas = json::array();
  for (const Replica& r : plan)
    replicas.push_back({{"micro_batches", r.micro_batches}, {"stages", plan_to_json(r.stages, problem)["stages"]}});
  return {{"replicas", replicas}};
}

}  // namespace geotrain

#include "api/replica_output.hpp"

#include "model/link_table.hpp"
#include "model/plan_json.hpp"
#include "model/replica_report.hpp"

namespace geotrain {

using json = nlohmann::ordered_json;

bool needs_replica_model(const ReplicaPlan& plan, const Problem& problem) {
  return plan.size() > 1 || network_has_capacities(problem.network);
}

json replica_evaluation_json(const ReplicaPlan& plan, const Problem& problem, const CostModel& objective) {
  const ReplicaPlanModel model(problem, plan, objective);
  const ReplicaReport report = report_replica_plan(model, problem);
  if (plan.size() > 1) return replica_report_to_json(report, plan, problem);
  json out = report_to_json(report.all, problem);
  add_replica_figures(out, report, problem);
  return out;
}

void add_replica_solution(json& out, const ReplicaPlan& plan, const Problem& problem, const CostModel& objective) {
  const ReplicaPlanModel model(problem, plan, objective);
  const ReplicaReport report = report_replica_plan(model, problem);
  const PlanCost& cost = report.breakdown.cost;
  if (plan.size() == 1) {
    out["stages"] = plan_to_json(plan.front().stages, problem)["stages"];
  } else {
    json replicas = json::array();
    for (std::size_t r = 0; r < plan.size(); ++r)
      replicas.push_back({{"micro_batches", plan[r].micro_batches},
                          {"stages", plan_to_json(plan[r].stages, problem)["stages"]},
                          {"pipeline_ms", report.breakdown.pipeline_s[r] * 1000.0},
                          {"bottleneck_stage", report.breakdown.bottleneck[r]},
                          {"gpus_used", gpu_count(plan[r].stages)},
                          {"stage_metrics", stage_reports_to_json(report.replicas[r], problem)}});
    out["replicas"] = std::move(replicas);
  }
  out["iteration_ms"] = cost.iteration_s * 1000.0;
  out["energy_j"] = cost.energy_j;
  out["objective"] = cost.objective;
  out["feasible"] = cost.feasible;
  out["gpus_used"] = gpu_count(plan);
  out["bottleneck_stage"] = cost.bottleneck;
  add_replica_figures(out, report, problem);
  add_practical_figures(out, report.all, problem);
  if (plan.size() == 1) out["stage_metrics"] = stage_reports_to_json(report.all, problem);
}

}  // namespace geotrain

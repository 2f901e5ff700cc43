#include "model/replica_report.hpp"

#include <algorithm>
#include <cstdio>

namespace geotrain {

using json = nlohmann::ordered_json;

namespace {

constexpr double kGiB = 1073741824.0;

// One stage of replica r, as report_plan (plan_report.cpp) reports a
// pipeline's, with the sends as the replica model priced them and the energy
// of its replica's m_r micro-batches.
StageReport stage_report(const ReplicaPlanModel& plan, const ReplicaBreakdown& b, int r, int q,
                         const Problem& problem) {
  const CostModel& model = plan.model.devices();
  const ReplicaPlanView view = plan.view();
  const int Q = view.stages, device = view.device(r, q), layers = view.layers[q];
  const bool last = q + 1 == Q;
  const DeviceGroup& group = model.layout()[static_cast<std::size_t>(device)];
  StageReport s;
  s.gpu = group.gpus[0];
  s.gpus = group.gpus;
  s.tensor_parallel = group.tensor_parallel;
  s.layers = layers;
  s.compute_s = layers * model.layer_compute_s(device) + (last ? model.head_compute_s(device) : 0.0);
  s.tensor_parallel_s = layers * model.tensor_layer_s(device);
  s.send_forward_s = b.send_forward_s[static_cast<std::size_t>(r * Q + q)];
  s.send_backward_s = b.send_backward_s[static_cast<std::size_t>(r * Q + q)];
  s.stage_s = s.compute_s + s.tensor_parallel_s + s.send_forward_s + s.send_backward_s;
  s.data_parallel_sync_s = model.data_parallel_sync_s(device, layers, last);
  s.memory_bytes = model.stage_memory_bytes(device, layers, Q, last);
  s.memory_limit_bytes = model.memory_limit_bytes(device);
  s.energy_j = model.idle_w(device) * b.cost.iteration_s +
               static_cast<double>(view.micro_batches[r]) * model.active_extra_w(device) * s.compute_s;
  const SiteFigures site = problem.site_figures(problem.gpus[static_cast<std::size_t>(s.gpu)].site);
  s.facility_energy_j = s.energy_j * site.pue;
  s.carbon_g = s.facility_energy_j / 3.6e6 * site.carbon_g_per_kwh;
  s.electricity_cost = s.facility_energy_j / 3.6e6 * site.price_per_kwh;
  for (int g : s.gpus) s.rental_cost += problem.gpus[static_cast<std::size_t>(g)].price_per_hour * b.cost.iteration_s / 3600.0;
  return s;
}

}  // namespace

ReplicaReport report_replica_plan(const ReplicaPlanModel& plan, const Problem& problem) {
  ReplicaReport report;
  const ReplicaPlanView view = plan.view();
  report.breakdown = plan.model.breakdown(view);
  report.all.cost = report.breakdown.cost;
  for (int r = 0; r < view.replicas; ++r) {
    PlanReport replica;
    replica.cost = report.breakdown.cost;
    replica.cost.bottleneck = report.breakdown.bottleneck[static_cast<std::size_t>(r)];
    for (int q = 0; q < view.stages; ++q) replica.stages.push_back(stage_report(plan, report.breakdown, r, q, problem));
    report.all.stages.insert(report.all.stages.end(), replica.stages.begin(), replica.stages.end());
    report.replicas.push_back(std::move(replica));
  }
  return report;
}

void add_replica_figures(json& out, const ReplicaReport& report, const Problem& problem) {
  const ReplicaBreakdown& b = report.breakdown;
  json pipes = json::array();
  const std::vector<std::string> names = [&] {
    std::vector<std::string> sites;
    for (const Gpu& g : problem.gpus)
      if (std::find(sites.begin(), sites.end(), g.site) == sites.end()) sites.push_back(g.site);
    return sites;
  }();
  for (const PipeLoad& p : b.pipes)
    pipes.push_back({{"from", names[static_cast<std::size_t>(p.from_site)]},
                     {"to", names[static_cast<std::size_t>(p.to_site)]},
                     {"bytes", p.bytes},
                     {"ms", p.time_s * 1000.0}});
  out["replica_count"] = report.replicas.size();
  out["cross_replica_sync_ms"] = b.cross_replica_sync_s * 1000.0;
  json all_reduce = json::array();
  for (double s : b.all_reduce_s) all_reduce.push_back(s * 1000.0);
  out["cross_replica_all_reduce_ms"] = all_reduce;  // AR_q per stage
  out["sync_every"] = problem.training.sync_every;
  out["sync_compression"] = problem.training.sync_compression;
  out["site_pipes"] = pipes;
  out["data_parallel_sync_ms"] = b.data_parallel_sync_s * 1000.0;
}

json replica_report_to_json(const ReplicaReport& report, const ReplicaPlan& plan, const Problem& problem) {
  const ReplicaBreakdown& b = report.breakdown;
  json violations = json::array();
  json replicas = json::array();
  for (std::size_t r = 0; r < report.replicas.size(); ++r) {
    const PlanReport& replica = report.replicas[r];
    for (std::size_t q = 0; q < replica.stages.size(); ++q) {
      const StageReport& s = replica.stages[q];
      if (s.memory_bytes <= s.memory_limit_bytes) continue;
      char text[240];
      std::snprintf(text, sizeof text, "replicas[%zu].stages[%zu] (%s): needs %.2f GiB, %.2f GiB usable", r, q,
                    problem.gpus[static_cast<std::size_t>(s.gpu)].id.c_str(), s.memory_bytes / kGiB,
                    s.memory_limit_bytes / kGiB);
      violations.push_back(text);
    }
    replicas.push_back({{"micro_batches", plan[r].micro_batches},
                        {"pipeline_ms", b.pipeline_s[r] * 1000.0},
                        {"bottleneck_stage", b.bottleneck[r]},
                        {"gpus_used", gpu_count(plan[r].stages)},
                        {"stages", stage_reports_to_json(replica, problem)}});
  }
  json out = {{"iteration_ms", b.cost.iteration_s * 1000.0},
              {"energy_j", b.cost.energy_j},
              {"objective", b.cost.objective},
              {"feasible", b.cost.feasible},
              {"bottleneck_stage", b.cost.bottleneck},
              {"gpus_used", gpu_count(plan)},
              {"stage_count", plan.front().stages.size()},
              {"micro_batches", problem.model.micro_batches()}};
  add_replica_figures(out, report, problem);
  out["replicas"] = std::move(replicas);
  out["violations"] = std::move(violations);
  add_practical_figures(out, report.all, problem);
  return out;
}

}  // namespace geotrain

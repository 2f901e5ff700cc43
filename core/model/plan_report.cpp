#include "model/plan_report.hpp"

#include <algorithm>
#include <cstdio>

namespace geotrain {

using json = nlohmann::ordered_json;

namespace {
constexpr double kGiB = 1073741824.0;
}

PlanReport report_plan(const CostModel& model, const Plan& plan, const Problem& problem) {
  PlanReport report;
  report.cost = model.evaluate(plan);
  const int count = static_cast<int>(plan.size());
  for (int q = 0; q < count; ++q) {
    const Stage& s = plan[q];
    const bool last = q + 1 == count;
    const DeviceGroup& group = model.layout()[static_cast<std::size_t>(s.gpu)];
    StageReport r;
    r.gpu = group.gpus[0];
    r.gpus = group.gpus;
    r.tensor_parallel = group.tensor_parallel;
    r.layers = s.layers;
    r.compute_s = s.layers * model.layer_compute_s(s.gpu) + (last ? model.head_compute_s(s.gpu) : 0.0);
    r.tensor_parallel_s = s.layers * model.tensor_layer_s(s.gpu);
    r.send_forward_s = last ? 0.0 : model.send_s(s.gpu, plan[q + 1].gpu);
    r.send_backward_s = q == 0 ? 0.0 : model.send_s(s.gpu, plan[q - 1].gpu);
    r.stage_s = r.compute_s + r.tensor_parallel_s + r.send_forward_s + r.send_backward_s;
    r.data_parallel_sync_s = model.data_parallel_sync_s(s.gpu, s.layers, last);
    r.memory_bytes = model.stage_memory_bytes(s.gpu, s.layers, count, last);
    r.memory_limit_bytes = model.memory_limit_bytes(s.gpu);
    r.energy_j = model.idle_w(s.gpu) * report.cost.iteration_s +
                 model.micro_batches() * model.active_extra_w(s.gpu) * r.compute_s;
    // objectives.md's F_g, C and M, summed over the stage's GPUs.
    const SiteFigures site = problem.site_figures(problem.gpus[static_cast<std::size_t>(r.gpu)].site);
    r.facility_energy_j = r.energy_j * site.pue;
    r.carbon_g = r.facility_energy_j / 3.6e6 * site.carbon_g_per_kwh;
    r.electricity_cost = r.facility_energy_j / 3.6e6 * site.price_per_kwh;
    for (int g : r.gpus) r.rental_cost += problem.gpus[static_cast<std::size_t>(g)].price_per_hour * report.cost.iteration_s / 3600.0;
    report.stages.push_back(r);
  }
  return report;
}

namespace {

// The link a stage sends over, as the problem declares it, for views that show
// where a send time comes from.
json link_json(const Problem& problem, int from, int to) {
  const auto link = resolve_link(problem.network, problem.gpus[from], problem.gpus[to]);
  if (!link) return nullptr;
  return {{"to", problem.gpus[to].id},
          {"bandwidth_gbps", link->link.bandwidth_gbps},
          {"latency_ms", link->link.latency_ms},
          {"util", link->link.util},
          {"source", link_source_name(link->source)}};
}

}  // namespace

json stage_reports_to_json(const PlanReport& report, const Problem& problem) {
  json stages = json::array();
  const std::size_t count = report.stages.size();
  for (std::size_t q = 0; q < count; ++q) {
    const StageReport& r = report.stages[q];
    const Gpu& g = problem.gpus[r.gpu];
    json ids = json::array();
    for (int k : r.gpus) ids.push_back(problem.gpus[static_cast<std::size_t>(k)].id);
    json s = {{"gpu", g.id},
              {"gpus", ids},
              {"tensor_parallel", r.tensor_parallel},
              {"data_parallel", r.data_parallel()},
              {"type", g.type},
              {"site", g.site},
              {"layers", r.layers},
              {"compute_ms", r.compute_s * 1000.0},
              {"tensor_parallel_ms", r.tensor_parallel_s * 1000.0},
              {"send_forward_ms", r.send_forward_s * 1000.0},
              {"send_backward_ms", r.send_backward_s * 1000.0},
              {"stage_ms", r.stage_s * 1000.0},
              {"data_parallel_sync_ms", r.data_parallel_sync_s * 1000.0},
              {"memory_gib", r.memory_bytes / kGiB},
              {"memory_limit_gib", r.memory_limit_bytes / kGiB},
              {"energy_j", r.energy_j},
              {"facility_energy_j", r.facility_energy_j},
              {"carbon_g", r.carbon_g},
              {"cost", r.electricity_cost + r.rental_cost},
              {"fits", r.memory_bytes <= r.memory_limit_bytes}};
    s["link_forward"] = q + 1 < count ? link_json(problem, r.gpu, report.stages[q + 1].gpu) : json(nullptr);
    s["link_backward"] = q > 0 ? link_json(problem, r.gpu, report.stages[q - 1].gpu) : json(nullptr);
    stages.push_back(std::move(s));
  }
  return stages;
}

json report_to_json(const PlanReport& report, const Problem& problem) {
  json violations = json::array();
  std::size_t gpus_used = 0;
  double sync_s = 0;
  for (const StageReport& r : report.stages) gpus_used += r.gpus.size(), sync_s = std::max(sync_s, r.data_parallel_sync_s);
  for (std::size_t q = 0; q < report.stages.size(); ++q) {
    const StageReport& r = report.stages[q];
    if (r.memory_bytes <= r.memory_limit_bytes) continue;
    char text[200];
    std::snprintf(text, sizeof text, "stages[%zu] (%s): needs %.2f GiB, %.2f GiB usable", q,
                  problem.gpus[r.gpu].id.c_str(), r.memory_bytes / kGiB, r.memory_limit_bytes / kGiB);
    violations.push_back(text);
  }
  json out = {{"iteration_ms", report.cost.iteration_s * 1000.0},
          {"energy_j", report.cost.energy_j},
          {"objective", report.cost.objective},
          {"feasible", report.cost.feasible},
          {"bottleneck_stage", report.cost.bottleneck},
          {"gpus_used", gpus_used},
          {"stage_count", report.stages.size()},
          {"data_parallel_sync_ms", sync_s * 1000.0},
          {"micro_batches", problem.model.micro_batches()},
          {"stages", stage_reports_to_json(report, problem)},
          {"violations", violations}};
  add_practical_figures(out, report, problem);
  return out;
}

namespace {

struct SiteTotals {
  std::string site;
  std::size_t gpus_used = 0;
  double energy_j = 0, facility_energy_j = 0, carbon_g = 0, electricity_cost = 0, rental_cost = 0;
};

// One entry per site the plan uses, in the order the problem lists their GPUs.
std::vector<SiteTotals> site_totals(const PlanReport& report, const Problem& problem) {
  std::vector<SiteTotals> sites;
  for (const Gpu& g : problem.gpus)
    if (std::none_of(sites.begin(), sites.end(), [&](const SiteTotals& s) { return s.site == g.site; }))
      sites.push_back({g.site});
  for (const StageReport& r : report.stages) {
    for (SiteTotals& s : sites) {
      if (s.site != problem.gpus[static_cast<std::size_t>(r.gpu)].site) continue;
      s.gpus_used += r.gpus.size();
      s.energy_j += r.energy_j, s.facility_energy_j += r.facility_energy_j, s.carbon_g += r.carbon_g;
      s.electricity_cost += r.electricity_cost, s.rental_cost += r.rental_cost;
    }
  }
  sites.erase(std::remove_if(sites.begin(), sites.end(), [](const SiteTotals& s) { return s.gpus_used == 0; }),
              sites.end());
  return sites;
}

}  // namespace

void add_practical_figures(json& out, const PlanReport& report, const Problem& problem) {
  double facility_j = 0;
  json sites = json::array();
  for (const SiteTotals& s : site_totals(report, problem)) {
    facility_j += s.facility_energy_j;
    sites.push_back({{"site", s.site},
                     {"gpus_used", s.gpus_used},
                     {"energy_j", s.energy_j},
                     {"facility_energy_j", s.facility_energy_j},
                     {"carbon_g", s.carbon_g},
                     {"cost", s.electricity_cost + s.rental_cost},
                     {"electricity_cost", s.electricity_cost},
                     {"rental_cost", s.rental_cost}});
  }
  out["carbon_g"] = report.cost.carbon_g;
  out["cost"] = report.cost.cost;
  out["facility_energy_j"] = facility_j;
  out["sites"] = std::move(sites);
  if (!problem.training.iterations) {
    out["run"] = nullptr;
    return;
  }
  const double n = static_cast<double>(*problem.training.iterations);
  const double hours = n * report.cost.iteration_s / 3600.0;
  out["run"] = {{"iterations", *problem.training.iterations},
                {"hours", hours},
                {"days", hours / 24.0},
                {"energy_kwh", n * report.cost.energy_j / 3.6e6},
                {"facility_energy_kwh", n * facility_j / 3.6e6},
                {"carbon_kg", n * report.cost.carbon_g / 1000.0},
                {"cost", n * report.cost.cost}};
}

}  // namespace geotrain

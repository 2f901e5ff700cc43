// The replicas study's summary: per wide-area bandwidth and sync period, one
// pipeline against the planner's choice of replicas, and where replicas first
// win (shape: docs/replicas.md, "The replicas study").
#include <algorithm>
#include <cmath>

#include "model/plan_json.hpp"
#include "model/replica_plan_json.hpp"
#include "studies/pareto.hpp"
#include "studies/study_results.hpp"

namespace geotrain {

using json = nlohmann::ordered_json;

namespace {

// The best seed among the point's jobs of one kind (replicas auto or not).
json side(const StudySetup& setup, const StudyOutcomes& outcomes, int point, bool replicas) {
  std::vector<int> jobs;
  for (std::size_t j = 0; j < setup.jobs.size(); ++j)
    if (setup.jobs[j].point == point && setup.jobs[j].problem.search.replicas_auto == replicas)
      jobs.push_back(static_cast<int>(j));
  const int best = best_of(outcomes, jobs);
  if (best < 0) return unsolved_side(setup, outcomes, jobs);
  const StudyJob& job = setup.jobs[best];
  const JobOutcome& o = outcomes.jobs[best];
  json out = {{"job", job.id},
              {"feasible", o.cost.feasible},
              {"iteration_ms", o.cost.iteration_s * 1000.0},
              {"energy_j", o.cost.energy_j},
              {"objective", o.cost.objective},
              {"replica_count", std::max<std::size_t>(1, o.replicas.size())}};
  if (o.replicas.empty()) {
    out["gpus_used"] = gpu_count(o.plan);
    out["stages"] = plan_to_json(o.plan, job.problem)["stages"];
  } else {
    out["gpus_used"] = gpu_count(o.replicas);
    out["replicas"] = replica_plan_to_json(o.replicas, job.problem)["replicas"];
  }
  return out;
}

}  // namespace

json replicas_summary(const StudySetup& setup, const StudyOutcomes& outcomes) {
  const StudyOptions& o = setup.options;
  json points = json::array(), crossover = json::array();
  for (std::size_t k = 0; k < o.sync_every.size(); ++k) {
    std::vector<double> wins;
    for (std::size_t i = 0; i < o.values.size(); ++i) {
      const int point = static_cast<int>(i * o.sync_every.size() + k);
      json p = {{"bandwidth_gbps", o.values[i]},
                {"sync_every", o.sync_every[k]},
                {"one_pipeline", side(setup, outcomes, point, false)},
                {"replicas", side(setup, outcomes, point, true)},
                {"winner", nullptr},
                {"gain_pct", nullptr}};
      const json &a = p["one_pipeline"], &b = p["replicas"];
      if (a.is_object() && b.is_object() && a.contains("objective") && b.contains("objective")) {
        const bool several = b["replica_count"].get<int>() > 1;
        const double one = a["objective"].get<double>(), many = b["objective"].get<double>();
        // A plan of one replica is one pipeline, whatever the job.
        p["winner"] = several && many < one ? "replicas" : "one pipeline";
        p["gain_pct"] = -percent_change(b["iteration_ms"].get<double>(), a["iteration_ms"].get<double>());
        if (several && many < one) wins.push_back(o.values[i]);
      }
      points.push_back(std::move(p));
    }
    std::sort(wins.begin(), wins.end());
    crossover.push_back({{"sync_every", o.sync_every[k]},
                         {"replicas_win_at_gbps", wins},
                         {"lowest_gbps", wins.empty() ? json(nullptr) : json(wins.front())}});
  }
  json out = {{"study", "replicas"},
              {"method", method_name(o.method)},
              {"unit", "Gbps"},
              {"points", std::move(points)},
              {"crossover", std::move(crossover)}};
  add_counts(out, outcomes, setup);
  return out;
}

}  // namespace geotrain

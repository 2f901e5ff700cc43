#include "studies/where_study.hpp"

#include <algorithm>
#include <set>

#include "api/planner.hpp"
#include "model/feasibility.hpp"
#include "model/input_error.hpp"
#include "model/objective_json.hpp"
#include "studies/network_sweep.hpp"
#include "studies/study_results.hpp"

namespace geotrain {

using json = nlohmann::ordered_json;

Problem restricted_to_sites(const Problem& problem, const std::vector<std::string>& sites) {
  const std::set<std::string> keep(sites.begin(), sites.end());
  Problem out = problem;
  out.gpus.clear();
  std::set<std::string> ids;
  for (const Gpu& g : problem.gpus)
    if (keep.count(g.site)) out.gpus.push_back(g), ids.insert(g.id);
  auto& links = out.network.links;
  links.erase(std::remove_if(links.begin(), links.end(),
                             [&](const GpuLink& l) { return !ids.count(l.from_gpu) || !ids.count(l.to_gpu); }),
              links.end());
  auto& site_links = out.network.site_links;
  site_links.erase(std::remove_if(site_links.begin(), site_links.end(),
                                  [&](const SiteLink& l) { return !keep.count(l.from_site) || !keep.count(l.to_site); }),
                   site_links.end());
  // A site figure no GPU uses is an error in a problem file: the job's problem must stay a valid one.
  for (auto it = out.sites.begin(); it != out.sites.end();) it = keep.count(it->first) ? std::next(it) : out.sites.erase(it);
  return out;
}

namespace {

std::string site_label(const std::string& site) { return site.empty() ? "(no site)" : site; }

std::string joined(const std::vector<std::string>& sites) {
  std::string text;
  for (const std::string& s : sites) text += (text.empty() ? "" : "+") + site_label(s);
  return text;
}

}  // namespace

std::vector<SiteSubset> site_subsets(const Problem& pinned) {
  const std::vector<std::string> sites = gpu_sites(pinned.gpus);
  const int n = static_cast<int>(sites.size());
  if (n > kMaxWhereSites)
    throw InputError("study: where to train compares at most " + std::to_string(kMaxWhereSites) + " sites (" +
                     std::to_string(kMaxWhereSites * (kMaxWhereSites + 1) / 2) + " subsets of one or two), the problem has " +
                     std::to_string(n));
  std::vector<std::vector<std::string>> chosen;
  for (int i = 0; i < n; ++i) chosen.push_back({sites[i]});
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) chosen.push_back({sites[i], sites[j]});
  std::vector<SiteSubset> out;
  std::set<std::string> names;
  bool ambiguous = false;  // site names holding "+" could make two subsets read alike
  for (const auto& c : chosen) ambiguous = !names.insert(joined(c)).second || ambiguous;
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    SiteSubset s;
    s.sites = chosen[k];
    s.name = ambiguous ? "#" + std::to_string(k + 1) : joined(chosen[k]);
    s.problem = restricted_to_sites(pinned, chosen[k]);
    const CostModel model(s.problem);
    if (!some_plan_fits(s.problem, model)) s.infeasible_reason = infeasibility_reason(model, s.problem);
    out.push_back(std::move(s));
  }
  return out;
}

namespace {

// The figures of a subset's best plan, with the run totals when the problem has a length.
json subset_figures(const StudyJob& job, const JobOutcome& o) {
  json p = {{"job", job.id}, {"feasible", true}};
  const Problem problem = with_micro_batch_size(job.problem, o.micro_batch_size);  // 0: the problem's u
  const PlanReport report = report_study_plan(problem, o.plan, job_weights(job));
  json practical;
  add_practical_figures(practical, report, problem);
  const json figures = plan_figures(job.problem, o.plan, o.cost);
  p["iteration_ms"] = figures["iteration_ms"];
  p["energy_j"] = figures["energy_j"];
  p["carbon_g"] = o.cost.carbon_g;
  p["cost"] = o.cost.cost;
  p["objective"] = figures["objective"];
  p["gpus_used"] = figures["gpus_used"];
  p["gpus"] = figures["gpus"];
  p["sites_used"] = sites_used(job.problem, o.plan);
  p["stages"] = figures["stages"];
  p["run"] = practical["run"];
  return p;
}

// The point of least `key` among the feasible, solved ones (the first of equals: singles before pairs).
json extreme(const json& points, const char* key) {
  const json* best = nullptr;
  for (const json& p : points)
    if (p.contains(key) && (!best || p[key].get<double>() < (*best)[key].get<double>())) best = &p;
  if (!best) return nullptr;
  return {{"sites", (*best)["sites"]}, {"job", (*best)["job"]}, {key, (*best)[key]}};
}

json site_names(const std::vector<std::string>& sites) {
  json out = json::array();
  for (const std::string& s : sites) out.push_back(s);
  return out;
}

}  // namespace

json where_summary(const StudySetup& setup, const StudyOutcomes& outcomes) {
  const auto by_subset = jobs_by_point(setup, setup.site_subsets.size());
  json points = json::array();
  for (std::size_t i = 0; i < setup.site_subsets.size(); ++i) {
    const SiteSubset& subset = setup.site_subsets[i];
    json p = {{"sites", site_names(subset.sites)}};
    if (!subset.infeasible_reason.empty()) {
      p["job"] = nullptr, p["feasible"] = false, p["reason"] = subset.infeasible_reason;
    } else if (const int best = best_of(outcomes, by_subset[i]); best >= 0) {
      p.update(subset_figures(setup.jobs[best], outcomes.jobs[best]));
      int agreeing = 0, finished = 0;
      for (int j : by_subset[i])
        if (outcomes.jobs[j].solved()) ++finished, agreeing += same_plan(outcomes.jobs[j].plan, outcomes.jobs[best].plan);
      p["seeds_agreeing"] = agreeing, p["seeds_finished"] = finished;
    } else {
      const auto& jobs = by_subset[i];
      const auto failed = std::find_if(jobs.begin(), jobs.end(),
                                       [&](int j) { return outcomes.jobs[j].state == JobOutcome::State::failed; });
      p["job"] = failed != jobs.end() ? json(setup.jobs[*failed].id) : json(nullptr);
      p["feasible"] = true;
      if (failed != jobs.end()) p["error"] = outcomes.jobs[*failed].error;
      else p["missing"] = true;
    }
    points.push_back(std::move(p));
  }
  const std::vector<std::string> sites = gpu_sites(setup.problem.gpus);
  const References& refs = setup.references;
  json out = {{"study", "where"},
              {"method", method_name(setup.options.method)},
              {"sites", site_names(sites)},
              {"weights", weights_to_json(setup.problem.objective.effective_weights())},
              {"t_ref_ms", refs.t_ref_ms},
              {"e_ref_j", refs.e_ref_j}};
  if (refs.c_ref_g) out["c_ref_g"] = *refs.c_ref_g;
  if (refs.m_ref) out["m_ref"] = *refs.m_ref;
  out["references"] = refs.source;
  out["best"] = extreme(points, "objective");
  out["fastest"] = extreme(points, "iteration_ms");
  out["cleanest"] = extreme(points, "carbon_g");
  out["cheapest"] = extreme(points, "cost");
  json notes = json::array();
  if (sites.size() == 1)
    notes.push_back("every GPU is on one site (" + site_label(sites[0]) +
                    "): there is nothing to compare; give GPUs their sites (gpus[].site) to see where to train");
  if (setup.problem.sites.empty())
    notes.push_back("the problem has no site figures (sites): every plan emits 0 g and pays only its GPUs' rent");
  out["notes"] = std::move(notes);
  out["points"] = std::move(points);
  add_counts(out, outcomes, setup);
  return out;
}

}  // namespace geotrain

#include "studies/studies.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "api/api.hpp"
#include "model/feasibility.hpp"
#include "model/input_error.hpp"
#include "model/json_fields.hpp"
#include "model/message_list.hpp"
#include "studies/network_sweep.hpp"
#include "model/objective_json.hpp"
#include "model/problem_json.hpp"
#include "studies/where_study.hpp"
#include "search/space/hybrid_layouts.hpp"
#include "search/memetic/hybrid_memetic.hpp"

namespace geotrain {

using json = nlohmann::ordered_json;

namespace {

constexpr std::int64_t kMaxSeed = (std::int64_t{1} << 53) - 1;

bool is_network_sweep(StudyKind kind) { return kind == StudyKind::latency || kind == StudyKind::bandwidth; }

NetworkFigure swept_figure(StudyKind kind) {
  return kind == StudyKind::latency ? NetworkFigure::latency_ms : NetworkFigure::bandwidth_gbps;
}

// Numbers in ids: 1 not 1.0, 0.1 not 0.10000000000000001; the same text
// natively and in wasm (nlohmann's own shortest round-trip printing).
std::string number_text(double x) { return FieldReader::describe(nlohmann::json(x)); }

}  // namespace

namespace {

// Whether some plan fits: a pipeline plan or, when stage groups are allowed,
// a plan of groups (the same screen the planner applies before a hybrid solve).
bool some_plan_fits(const Problem& problem, const CostModel& model, bool groups) {
  if (any_feasible_plan(model)) return true;
  if (!groups) return false;
  const LayoutSpace space(problem, model);
  return any_feasible_layout(space, space.starting_choices(HybridSettings{}.enumerate_up_to));
}

bool allows_groups(const Problem& problem, StudyKind kind) {
  return problem.search.parallelism == Parallelism::hybrid || kind == StudyKind::parallelism;
}

Problem with_parallelism(Problem problem, Parallelism parallelism) {
  problem.search.parallelism = parallelism;
  return problem;
}

Problem job_problem(const Problem& base, const References& refs) {
  Problem p = base;
  p.description.clear();  // jobs travel to workers: only what solving needs
  p.story.clear();
  p.objective.t_ref_ms = refs.t_ref_ms;
  p.objective.e_ref_j = refs.e_ref_j;
  // Carbon and money references only when there are some (a problem without
  // sites or prices keeps its jobs exactly as before).
  if (refs.c_ref_g) p.objective.c_ref_g = refs.c_ref_g;
  if (refs.m_ref) p.objective.m_ref = refs.m_ref;
  return p;
}

// The objective a job plans with: the problem's own (its weights, or its
// lambda as the paper's studies always passed it), or a trade-off's point.
struct JobObjective {
  std::optional<double> lambda;
  std::optional<ObjectiveWeights> weights;
};

JobObjective problem_objective(const Problem& p) {
  if (p.objective.weights) return {std::nullopt, p.objective.weights};
  return {p.objective.lambda, std::nullopt};
}

// Point w of a trade-off: lambda = w on the paper's axes, else {x: w, y: 1 - w}.
JobObjective tradeoff_objective(const StudyAxes& axes, double w) {
  if (axes.is_time_energy()) return {w, std::nullopt};
  return {std::nullopt, axis_weights(axes, w)};
}

// The references every job shares, from the full problem. A trade-off over
// carbon or money needs C_ref or M_ref even when the problem's own weights
// leave them out; the baseline is the same plan either way (metis-improved
// picks by time), so T_ref and E_ref do not change.
References study_references(const Problem& problem, const StudyOptions& options, const CostModel& model) {
  if (options.kind != StudyKind::pareto || options.axes.is_time_energy()) return resolve_references(problem, model);
  Problem asked = problem;
  ObjectiveWeights w = problem.objective.effective_weights();
  for (StudyAxis axis : {options.axes.x, options.axes.y}) {
    if (axis == StudyAxis::carbon) w.carbon = std::max(w.carbon, 1.0);
    if (axis == StudyAxis::cost) w.cost = std::max(w.cost, 1.0);
  }
  asked.objective.weights = w;
  return resolve_references(asked, model);
}

// Seeds base, base + 1, ...: never above the problem format's largest seed.
std::uint64_t base_seed(const StudyOptions& options, const Problem& problem) {
  const std::uint64_t base = options.seed.value_or(problem.search.seed);
  if (base + static_cast<std::uint64_t>(options.seeds) - 1 > static_cast<std::uint64_t>(kMaxSeed))
    throw InputError("study.seed: the base seed " + std::to_string(base) + " plus " + count_of(options.seeds, "seed") +
                     " passes the largest seed, 2^53 - 1");
  return base;
}

struct JobFactory {
  const StudyOptions& options;
  std::uint64_t seed;
  std::vector<StudyJob>& jobs;

  // One job per seed for point `point`, named "<name>/seed=<seed>".
  void planner_jobs(int point, const std::string& name, const Problem& job_problem, const JobObjective& objective,
                    std::optional<int> stage_count = std::nullopt) {
    for (int s = 0; s < options.seeds; ++s) {
      StudyJob job;
      job.point = point;
      job.seed_index = s;
      job.problem = job_problem;
      job.options.method = options.method;
      job.options.seed = seed + static_cast<std::uint64_t>(s);
      job.options.lambda = objective.lambda;
      job.options.weights = objective.weights;
      job.options.time_limit_s = options.time_limit_s;
      job.options.stage_count = stage_count;
      job.id = name + "/seed=" + std::to_string(*job.options.seed);
      jobs.push_back(std::move(job));
    }
  }

  void baseline_job(int point, const std::string& name, const Problem& job_problem) {
    StudyJob job;
    job.point = point;
    job.baseline = true;
    job.problem = job_problem;
    job.options.method = Method::metis_improved;
    job.options.seed = seed;
    const JobObjective objective = problem_objective(job_problem);
    job.options.lambda = objective.lambda;
    job.options.weights = objective.weights;
    job.id = name + "/metis-improved";
    jobs.push_back(std::move(job));
  }
};

void add_jobs(const StudySetup& setup, const Problem& pinned, std::vector<StudyJob>& jobs) {
  const StudyOptions& o = setup.options;
  JobFactory factory{o, base_seed(o, setup.problem), jobs};
  const JobObjective own = problem_objective(pinned);
  switch (o.kind) {
    case StudyKind::pareto:
      for (std::size_t i = 0; i < o.lambdas.size(); ++i)
        factory.planner_jobs(static_cast<int>(i), "lambda=" + number_text(o.lambdas[i]), pinned,
                             tradeoff_objective(o.axes, o.lambdas[i]));
      break;
    case StudyKind::where:
      for (std::size_t i = 0; i < setup.site_subsets.size(); ++i)
        if (setup.site_subsets[i].infeasible_reason.empty())
          factory.planner_jobs(static_cast<int>(i), "sites=" + setup.site_subsets[i].name,
                               setup.site_subsets[i].problem, own);
      break;
    case StudyKind::subset: {
      // Only stage counts some plan can fill get jobs; the summary reports the others as infeasible.
      // In hybrid mode k counts stages, and a stage may be a group of GPUs.
      CostModel model(pinned);
      const bool groups = allows_groups(pinned, o.kind);
      const int most = std::min(model.num_gpus(), model.num_layers());
      for (int k = 1; k <= most; ++k) {
        model.set_stage_count_range(k, k);
        if (some_plan_fits(pinned, model, groups))
          factory.planner_jobs(k - 1, "k=" + std::to_string(k), pinned, own, k);
      }
      break;
    }
    case StudyKind::parallelism: {
      // The same pool, objective and seeds, once one GPU a stage and once with
      // stage groups; the pipeline side gets no job when no pipeline plan fits.
      const Problem pipeline = with_parallelism(pinned, Parallelism::pipeline);
      if (any_feasible_plan(CostModel(pipeline))) factory.planner_jobs(0, "pipeline", pipeline, own);
      factory.planner_jobs(1, "hybrid", with_parallelism(pinned, Parallelism::hybrid), own);
      break;
    }
    case StudyKind::latency:
    case StudyKind::bandwidth: {
      const NetworkFigure figure = swept_figure(o.kind);
      for (std::size_t i = 0; i < o.values.size(); ++i) {
        const Problem swept = with_cross_site_figure(pinned, figure, o.values[i]);
        const std::string name = std::string(network_figure_name(figure)) + "=" + number_text(o.values[i]);
        factory.planner_jobs(static_cast<int>(i), name + "/" + method_name(o.method), swept, own);
        factory.baseline_job(static_cast<int>(i), name, swept);
      }
      break;
    }
    case StudyKind::split: factory.planner_jobs(0, "split", pinned, own); break;
    case StudyKind::replicas: {
      // Per wide-area bandwidth and sync period: one pipeline, and the
      // planner's choice of replicas (point = value index * periods + period index).
      const std::size_t periods = o.sync_every.size();
      for (std::size_t i = 0; i < o.values.size(); ++i) {
        const Problem swept = with_cross_site_figure(pinned, NetworkFigure::bandwidth_gbps, o.values[i]);
        for (std::size_t k = 0; k < periods; ++k) {
          Problem at = swept;
          at.training.sync_every = o.sync_every[k];
          const int point = static_cast<int>(i * periods + k);
          const std::string name = "bandwidth=" + number_text(o.values[i]) + "/sync_every=" + std::to_string(o.sync_every[k]);
          at.search.replicas = 1, at.search.replicas_auto = false;
          factory.planner_jobs(point, name + "/one-pipeline", at, own);
          at.search.replicas_auto = true;
          factory.planner_jobs(point, name + "/replicas", at, own);
        }
      }
      break;
    }
  }
}

json job_options_json(const SolveOptions& o) {
  json out = {{"method", method_name(o.method)}, {"seed", *o.seed}};
  if (o.lambda) out["lambda"] = *o.lambda;
  if (o.weights) out["weights"] = weights_to_json(*o.weights);
  if (o.time_limit_s) out["time_limit_s"] = *o.time_limit_s;
  if (o.stage_count) out["stage_count"] = *o.stage_count;
  if (o.replicas) out["replicas"] = *o.replicas == 0 ? json("auto") : json(*o.replicas);
  return out;
}

}  // namespace

ObjectiveWeights job_weights(const StudyJob& job) {
  if (job.options.weights) return *job.options.weights;
  if (job.options.lambda) return ObjectiveWeights{*job.options.lambda, 1.0 - *job.options.lambda, 0, 0};
  return job.problem.objective.effective_weights();
}

StudySetup prepare_study(const std::string& problem_text, const nlohmann::json& study_options) {
  ParsedProblem parsed = parse_problem_text(problem_text);
  StudySetup setup;
  setup.options = parse_study_options(study_options);
  setup.problem = std::move(parsed.problem);
  setup.warnings = std::move(parsed.warnings);
  setup.warnings.insert(setup.warnings.end(), setup.options.warnings.begin(), setup.options.warnings.end());
  if ((is_network_sweep(setup.options.kind) || setup.options.kind == StudyKind::replicas) &&
      gpu_sites(setup.problem.gpus).size() < 2)
    throw InputError(std::string("study: ") + study_kind_name(setup.options.kind) +
                     " sweep needs GPUs on at least two sites");
  const CostModel model(setup.problem);
  if (!some_plan_fits(setup.problem, model, allows_groups(setup.problem, setup.options.kind)))
    throw PlanningError(infeasibility_reason(model, setup.problem));
  setup.references = study_references(setup.problem, setup.options, model);
  Problem pinned = job_problem(setup.problem, setup.references);
  // The other studies compare plans of one pipeline; the replicas study sets
  // search.replicas per job itself.
  if (setup.options.kind != StudyKind::replicas && (pinned.search.replicas != 1 || pinned.search.replicas_auto)) {
    pinned.search.replicas = 1, pinned.search.replicas_auto = false;
    setup.warnings.push_back(std::string("search.replicas: the ") + study_kind_name(setup.options.kind) +
                             " study plans one pipeline per point; the replicas study compares one pipeline with "
                             "replicas");
  }
  if (setup.options.kind == StudyKind::where) setup.site_subsets = site_subsets(pinned);
  add_jobs(setup, pinned, setup.jobs);
  return setup;
}

json study_jobs(const std::string& problem_text, const nlohmann::json& study_options) {
  const StudySetup setup = prepare_study(problem_text, study_options);
  json jobs = json::array();
  for (const StudyJob& job : setup.jobs)
    jobs.push_back(
        {{"id", job.id}, {"problem", problem_to_json(job.problem)}, {"options", job_options_json(job.options)}});
  json out = {{"study", study_kind_name(setup.options.kind)}, {"jobs", std::move(jobs)}};
  if (!setup.warnings.empty()) out["warnings"] = cap_messages(setup.warnings);
  return out;
}

json summarise_study(const std::string& problem_text, const nlohmann::json& study_options,
                     const nlohmann::json& results) {
  return summarise_study(prepare_study(problem_text, study_options), results);
}

json run_study(const std::string& problem_text, const nlohmann::json& study_options) {
  const StudySetup setup = prepare_study(problem_text, study_options);
  nlohmann::json results = nlohmann::json::object();
  for (const StudyJob& job : setup.jobs) {
    // Through JSON text, exactly as a page worker solves the job.
    try {
      results[job.id] = solve_request(problem_to_json(job.problem).dump(), job.options);
    } catch (const std::exception& e) {
      results[job.id] = error_to_json(e);
    }
  }
  return summarise_study(setup, results);
}

}  // namespace geotrain

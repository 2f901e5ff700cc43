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
#include "model/problem_json.hpp"
#include "search/hybrid_layouts.hpp"
#include "search/hybrid_memetic.hpp"

namespace geotrain {

using json = nlohmann::ordered_json;

namespace {

constexpr StudyKind kKinds[] = {StudyKind::pareto, StudyKind::subset, StudyKind::latency, StudyKind::bandwidth,
                                StudyKind::split, StudyKind::parallelism};
constexpr std::int64_t kMaxSeed = (std::int64_t{1} << 53) - 1;
constexpr int kDefaultSeeds = 3;  // pareto and network sweeps with memetic

std::string kind_names() {
  std::string text;
  for (StudyKind k : kKinds) text += (text.empty() ? "" : "|") + std::string(study_kind_name(k));
  return text;
}

bool is_network_sweep(StudyKind kind) { return kind == StudyKind::latency || kind == StudyKind::bandwidth; }

NetworkFigure swept_figure(StudyKind kind) {
  return kind == StudyKind::latency ? NetworkFigure::latency_ms : NetworkFigure::bandwidth_gbps;
}

std::vector<double> default_lambdas() {
  std::vector<double> lambdas;
  for (int k = 0; k <= 10; ++k) lambdas.push_back(k / 10.0);  // k / 10.0 is the double nearest k tenths
  return lambdas;
}

std::vector<double> default_values(StudyKind kind) {
  if (kind == StudyKind::latency) return {0.1, 1, 5, 10, 50, 100};
  return {0.5, 2, 5, 10, 50, 100};
}

// A list of distinct numbers, each checked by `rule` (which returns the
// "must be ..." text when the value breaks it).
template <typename Rule>
std::vector<double> read_number_list(FieldReader& r, const nlohmann::json& options, const char* key, int max_count,
                                     Rule rule) {
  const std::string path = std::string("study.") + key;
  const nlohmann::json* list = r.array(options, "study", key, false);
  std::vector<double> values;
  if (!list) return values;
  if (list->empty()) r.error(path, "must list at least one value");
  if (static_cast<int>(list->size()) > max_count)
    r.error(path, "must list at most " + std::to_string(max_count) + " values, got " + std::to_string(list->size()));
  for (std::size_t i = 0; i < list->size() && static_cast<int>(i) < max_count; ++i) {
    const nlohmann::json& item = (*list)[i];
    const std::string where = index_path(path, i);
    if (!item.is_number() || !std::isfinite(item.get<double>())) {
      r.error(where, "must be a number, got " + FieldReader::describe(item));
      continue;
    }
    const double x = item.get<double>();
    if (const std::string broken = rule(x); !broken.empty()) {
      r.error(where, broken + ", got " + FieldReader::describe(item));
      continue;
    }
    const auto same = std::find(values.begin(), values.end(), x);
    if (same != values.end()) {
      r.error(where, "repeats " + index_path(key, static_cast<std::size_t>(same - values.begin())) + " (" +
                         FieldReader::describe(item) + ")");
      continue;
    }
    values.push_back(x);
  }
  return values;
}

// Numbers in ids: 1 not 1.0, 0.1 not 0.10000000000000001; the same text
// natively and in wasm (nlohmann's own shortest round-trip printing).
std::string number_text(double x) { return FieldReader::describe(nlohmann::json(x)); }

}  // namespace

const char* study_kind_name(StudyKind kind) {
  switch (kind) {
    case StudyKind::pareto: return "pareto";
    case StudyKind::subset: return "subset";
    case StudyKind::latency: return "latency";
    case StudyKind::bandwidth: return "bandwidth";
    case StudyKind::split: return "split";
    case StudyKind::parallelism: return "parallelism";
  }
  return "";
}

std::optional<StudyKind> study_kind_from_name(const std::string& name) {
  for (StudyKind k : kKinds)
    if (name == study_kind_name(k)) return k;
  return std::nullopt;
}

namespace {

// `lambdas` (pareto) and `values` (network sweeps), each refused elsewhere.
void read_swept_lists(FieldReader& r, const nlohmann::json& options, StudyOptions& out) {
  const StudyKind kind = out.kind;
  const bool takes_lambdas = kind == StudyKind::pareto, takes_values = is_network_sweep(kind);
  auto given = [&options](const char* key) { return options.contains(key) && !options[key].is_null(); };
  if (given("lambdas") && !takes_lambdas)
    r.error("study.lambdas", std::string("only the pareto study takes lambdas, not ") + study_kind_name(kind));
  if (given("values") && !takes_values)
    r.error("study.values",
            std::string("only the latency and bandwidth sweeps take values, not ") + study_kind_name(kind));
  if (takes_lambdas) {
    out.lambdas = read_number_list(r, options, "lambdas", kMaxStudyLambdas, [](double x) {
      return x >= 0 && x <= 1 ? std::string() : std::string("must be in [0, 1]");
    });
    if (!given("lambdas")) out.lambdas = default_lambdas();
  }
  if (takes_values) {
    const bool latency = kind == StudyKind::latency;
    out.values = read_number_list(r, options, "values", kMaxStudyValues, [latency](double x) {
      if (latency) return x >= 0 && x <= kMaxSweptLatencyMs ? std::string() : std::string("must be in [0, 1e6] ms");
      return x > 0 && x <= kMaxSweptBandwidthGbps ? std::string() : std::string("must be in (0, 1e6] Gbps");
    });
    if (!given("values")) out.values = default_values(kind);
  }
}

// method, seeds, time_limit_s and seed.
void read_run_settings(FieldReader& r, const nlohmann::json& options, StudyOptions& out) {
  if (auto name = r.string(options, "study", "method", false)) {
    if (*name == "memetic") out.method = Method::memetic;
    else if (*name == "exact") out.method = Method::exact;
    else r.error("study.method", "must be memetic or exact, got " + FieldReader::describe(*name));
  }
  // Exact is deterministic: one seed unless asked for more.
  const bool several_seeds =
      out.method == Method::memetic && out.kind != StudyKind::subset && out.kind != StudyKind::split;
  out.seeds = static_cast<int>(
      r.integer(options, "study", "seeds", false, 1, kMaxStudySeeds).value_or(several_seeds ? kDefaultSeeds : 1));
  out.time_limit_s = r.number(options, "study", "time_limit_s", false, Range::positive);
  if (out.time_limit_s && *out.time_limit_s > 86400)
    r.error("study.time_limit_s", "must be at most 86400 (one day), got " + FieldReader::describe(*out.time_limit_s));
  if (auto seed = r.integer(options, "study", "seed", false, 0, kMaxSeed)) out.seed = static_cast<std::uint64_t>(*seed);
}

}  // namespace

StudyOptions parse_study_options(const nlohmann::json& options) {
  FieldReader r;
  StudyOptions out;
  if (!r.open_object(options, "study", {"study", "lambdas", "seeds", "values", "method", "time_limit_s", "seed"}))
    throw InputError(r.errors());
  if (auto name = r.string(options, "study", "study", true)) {
    if (auto kind = study_kind_from_name(*name)) out.kind = *kind;
    else r.error("study.study", "must be one of " + kind_names() + ", got " + FieldReader::describe(*name));
  }
  if (!r.errors().empty()) throw InputError(r.errors());
  read_swept_lists(r, options, out);
  read_run_settings(r, options, out);
  if (!r.errors().empty()) throw InputError(r.errors());
  out.warnings = r.warnings();
  return out;
}

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
  return p;
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
  void planner_jobs(int point, const std::string& name, const Problem& job_problem, double lambda,
                    std::optional<int> stage_count = std::nullopt) {
    for (int s = 0; s < options.seeds; ++s) {
      StudyJob job;
      job.point = point;
      job.seed_index = s;
      job.problem = job_problem;
      job.options.method = options.method;
      job.options.seed = seed + static_cast<std::uint64_t>(s);
      job.options.lambda = lambda;
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
    job.options.lambda = job_problem.objective.lambda;
    job.id = name + "/metis-improved";
    jobs.push_back(std::move(job));
  }
};

void add_jobs(const StudySetup& setup, const Problem& pinned, std::vector<StudyJob>& jobs) {
  const StudyOptions& o = setup.options;
  JobFactory factory{o, base_seed(o, setup.problem), jobs};
  const double lambda = pinned.objective.lambda;
  switch (o.kind) {
    case StudyKind::pareto:
      for (std::size_t i = 0; i < o.lambdas.size(); ++i)
        factory.planner_jobs(static_cast<int>(i), "lambda=" + number_text(o.lambdas[i]), pinned, o.lambdas[i]);
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
          factory.planner_jobs(k - 1, "k=" + std::to_string(k), pinned, lambda, k);
      }
      break;
    }
    case StudyKind::parallelism: {
      // The same pool, objective and seeds, once one GPU a stage and once with
      // stage groups; the pipeline side gets no job when no pipeline plan fits.
      const Problem pipeline = with_parallelism(pinned, Parallelism::pipeline);
      if (any_feasible_plan(CostModel(pipeline))) factory.planner_jobs(0, "pipeline", pipeline, lambda);
      factory.planner_jobs(1, "hybrid", with_parallelism(pinned, Parallelism::hybrid), lambda);
      break;
    }
    case StudyKind::latency:
    case StudyKind::bandwidth: {
      const NetworkFigure figure = swept_figure(o.kind);
      for (std::size_t i = 0; i < o.values.size(); ++i) {
        const Problem swept = with_cross_site_figure(pinned, figure, o.values[i]);
        const std::string name = std::string(network_figure_name(figure)) + "=" + number_text(o.values[i]);
        factory.planner_jobs(static_cast<int>(i), name + "/" + method_name(o.method), swept, lambda);
        factory.baseline_job(static_cast<int>(i), name, swept);
      }
      break;
    }
    case StudyKind::split: factory.planner_jobs(0, "split", pinned, lambda); break;
  }
}

json job_options_json(const SolveOptions& o) {
  json out = {{"method", method_name(o.method)}, {"seed", *o.seed}, {"lambda", *o.lambda}};
  if (o.time_limit_s) out["time_limit_s"] = *o.time_limit_s;
  if (o.stage_count) out["stage_count"] = *o.stage_count;
  return out;
}

}  // namespace

StudySetup prepare_study(const std::string& problem_text, const nlohmann::json& study_options) {
  ParsedProblem parsed = parse_problem_text(problem_text);
  StudySetup setup;
  setup.options = parse_study_options(study_options);
  setup.problem = std::move(parsed.problem);
  setup.warnings = std::move(parsed.warnings);
  setup.warnings.insert(setup.warnings.end(), setup.options.warnings.begin(), setup.options.warnings.end());
  if (is_network_sweep(setup.options.kind) && gpu_sites(setup.problem.gpus).size() < 2)
    throw InputError(std::string("study: ") + study_kind_name(setup.options.kind) +
                     " sweep needs GPUs on at least two sites");
  const CostModel model(setup.problem);
  if (!some_plan_fits(setup.problem, model, allows_groups(setup.problem, setup.options.kind)))
    throw PlanningError(infeasibility_reason(model, setup.problem));
  setup.references = resolve_references(setup.problem, model);
  add_jobs(setup, job_problem(setup.problem, setup.references), setup.jobs);
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

#pragma once
// Studies: a trade-off or a sweep as a list of independent solve jobs plus a
// summary of their results, so that the page can run the jobs in parallel
// over Web Workers (each the module's ordinary `solve`) and the CLI one after
// another. Jobs and summaries are pure functions of (problem, options,
// results): same order, same ids, same knee, natively and in wasm.
// Every study, option, default and output field: core/STUDIES.md.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/planner.hpp"
#include "model/problem.hpp"
#include "api/references.hpp"
#include "studies/study_axes.hpp"

namespace geotrain {

enum class StudyKind { pareto, subset, latency, bandwidth, split, parallelism, where, replicas };

const char* study_kind_name(StudyKind kind);
std::optional<StudyKind> study_kind_from_name(const std::string& name);

// Caps that keep a study's job list (and the page's memory) bounded.
constexpr int kMaxStudyLambdas = 101;
constexpr int kMaxStudyValues = 64;
constexpr int kMaxStudySeeds = 16;
constexpr double kMaxSweptLatencyMs = 1e6;
constexpr double kMaxSweptBandwidthGbps = 1e6;
// where: each site alone and each pair, so 12 sites make 12 + 66 = 78 subsets.
constexpr int kMaxWhereSites = 12;

struct StudyOptions {
  StudyKind kind = StudyKind::pareto;
  std::vector<double> lambdas;  // pareto: 0, 0.1, ..., 1 by default
  StudyAxes axes;               // pareto: the two figures traded; time and energy by default
  std::vector<double> values;   // latency (ms) or bandwidth (Gbps) sweeps; replicas: the wide-area bandwidths
  std::vector<std::int64_t> sync_every;  // replicas: the sync periods H, [1] by default
  int seeds = 1;                // seeds per point; the best objective is kept
  Method method = Method::memetic;
  std::optional<double> time_limit_s;  // per job
  std::optional<std::uint64_t> seed;   // base seed; problem.search.seed when absent
  std::vector<std::string> warnings;   // unknown fields, e.g. "study.lamdbas: unknown field, ignored"
};

// {"study": "pareto"|"subset"|"latency"|"bandwidth"|"split"|"parallelism", "lambdas": [...],
//  "seeds": n, "values": [...], "method": "memetic"|"exact", "time_limit_s": s,
//  "seed": n, "axes": ["carbon", "cost"]}, defaults filled in. Throws InputError listing every fault, each
// naming its field: "study.lambdas[2]: must be in [0, 1], got 1.5".
StudyOptions parse_study_options(const nlohmann::json& options);

// Which point of the study a job belongs to, and what it runs.
struct StudyJob {
  std::string id;
  int point = 0;           // index of its lambda, k, swept value or site subset; parallelism: 0 pipeline, 1 hybrid
  int seed_index = 0;      // 0..seeds-1
  bool baseline = false;   // network sweeps: the metis-improved job of the point
  Problem problem;         // ready to solve: references pinned, network rescaled
  SolveOptions options;
};

// where: one site alone or a pair, the problem restricted to their GPUs.
struct SiteSubset {
  std::vector<std::string> sites;  // in order of first appearance in the problem's GPUs
  std::string name;                // in its jobs' ids: "A+B" ("sites=A+B/seed=1")
  Problem problem;                 // their GPUs only; references pinned from the full problem
  std::string infeasible_reason;   // empty: some plan fits (the subset has jobs)
};

struct StudySetup {
  Problem problem;  // the base problem, as parsed
  std::vector<std::string> warnings;  // the problem's, then the options'
  References references;  // the base problem's; pinned into every job
  StudyOptions options;
  std::vector<StudyJob> jobs;
  std::vector<SiteSubset> site_subsets;  // where only
};

// Parses both and lists the jobs. Throws InputError (bad problem or options,
// a network sweep on one site) or PlanningError (no plan fits at all).
StudySetup prepare_study(const std::string& problem_text, const nlohmann::json& study_options);

// The weights a job plans with: its options' weights, or its lambda's {lambda, 1 - lambda, 0, 0}.
ObjectiveWeights job_weights(const StudyJob& job);

// {"study": KIND, "jobs": [{"id", "problem": {...}, "options": {...}}, ...]}
nlohmann::ordered_json study_jobs(const std::string& problem_text, const nlohmann::json& study_options);

// The summary of whatever results there are: `results` maps job ids to solve
// results (what `solve` prints) or {"error": ...}; missing ids are counted,
// unknown ids ignored. Plans are re-evaluated from their stages, so the
// figures depend on the plans alone. Throws InputError on malformed results,
// naming them: results["lambda=0.5/seed=1"].stages[0].gpu: ...
nlohmann::ordered_json summarise_study(const std::string& problem_text, const nlohmann::json& study_options,
                                       const nlohmann::json& results);
nlohmann::ordered_json summarise_study(const StudySetup& setup, const nlohmann::json& results);

// Jobs, each solved in turn (a failing job becomes an {"error": ...} result,
// never an abort), then the summary: the CLI's path.
nlohmann::ordered_json run_study(const std::string& problem_text, const nlohmann::json& study_options);

// The summary as CSV with a header line: one row per table row (pareto) or
// point (sweeps; split: one row per split).
std::string study_summary_csv(const nlohmann::ordered_json& summary);

}  // namespace geotrain

#include "api/candidate_plans.hpp"

#include "model/group_layout.hpp"
#include "model/input_error.hpp"
#include "model/link_table.hpp"
#include "search/exact/gpu_symmetry.hpp"
#include "search/memetic/chromosome.hpp"
#include "search/memetic/memetic.hpp"

namespace geotrain {

namespace {

// Plans that differ only by swapping interchangeable GPUs (the same figures
// and links, gpu_symmetry.hpp) cost the same, analytic and simulated: one of
// them is kept. GPUs compare by their class.
bool same_plan(const CandidatePlan& a, const CandidatePlan& b, const GpuClasses& classes) {
  if (a.micro_batch_size != b.micro_batch_size || a.plan.size() != b.plan.size()) return false;
  for (std::size_t q = 0; q < a.plan.size(); ++q) {
    const GroupStage &x = a.plan[q], &y = b.plan[q];
    if (x.tensor_parallel != y.tensor_parallel || x.layers != y.layers || x.gpus.size() != y.gpus.size()) return false;
    for (std::size_t k = 0; k < x.gpus.size(); ++k) {
      const int gx = x.gpus[k], gy = y.gpus[k];
      if (gx != gy && (!x.single() || classes.class_of[gx] != classes.class_of[gy])) return false;
    }
  }
  return true;
}

void add_distinct(std::vector<CandidatePlan>& out, CandidatePlan candidate, const GpuClasses& classes) {
  for (const CandidatePlan& c : out)
    if (same_plan(c, candidate, classes)) return;
  out.push_back(std::move(candidate));
}

// The final population of the memetic run on the prepared (pipeline) model.
void add_population(std::vector<CandidatePlan>& out, const PreparedProblem& prepared, int count,
                    const GpuClasses& classes, const ProgressCallback& progress) {
  MemeticRun run(prepared.model, prepared.problem.search);
  while (!run.finished()) {
    run.step();
    if (progress && !progress(run.progress())) run.cancel();
  }
  const SolveResult best = run.result();
  for (const Chromosome& c : run.population()) {
    if (static_cast<int>(out.size()) >= count) break;
    if (!c.cost.feasible && !out.empty()) continue;
    CandidatePlan candidate;
    candidate.result = best;
    candidate.result.plan = decode_genes(c.genes);
    candidate.result.layout.clear();
    candidate.result.cost = c.cost;
    candidate.plan = to_group_plan(candidate.result.plan);
    candidate.cost = c.cost;
    add_distinct(out, std::move(candidate), classes);
  }
}

// The candidates are one pipeline's plans, figured by the one-pipeline model:
// a problem whose plans are replicas, are held to an engine, or share site
// pipes is refused, naming the field, rather than compared on the wrong space.
void check_one_pipeline_space(const Problem& problem) {
  const std::string what = "ranking by the simulation and the robustness study compare one-pipeline plans";
  if (problem.search.replicas != 1 || problem.search.replicas_auto)
    throw InputError("search.replicas: " + what + "; use 1 here (geotrain simulate runs a replica plan)");
  if (problem.search.engine != Engine::any)
    throw InputError("search.engine: " + what + " of the whole pool; use \"any\" here");
  if (network_has_capacities(problem.network))
    throw InputError("network: capacity_gbps: " + what + " without shared site pipes; "
                     "geotrain simulate runs a plan across them");
}

}  // namespace

std::vector<CandidatePlan> candidate_plans(const PreparedProblem& prepared, const SolveOptions& options, int count,
                                           const ProgressCallback& progress) {
  std::vector<CandidatePlan> out;
  const Problem& problem = prepared.problem;
  check_one_pipeline_space(problem);
  const bool one_run = options.method == Method::memetic && problem.search.parallelism == Parallelism::pipeline &&
                       !problem.search.micro_batch_auto;
  if (!one_run) {
    const SolveResult r = run_method(prepared, options, progress);
    CandidatePlan first;
    first.plan = r.layout.empty() ? to_group_plan(r.plan) : to_group_plan(r.plan, r.layout);
    first.micro_batch_size = r.micro_batch_size == problem.model.micro_batch_size ? 0 : r.micro_batch_size;
    first.cost = r.cost;
    first.result = r;
    out.push_back(std::move(first));
  }
  if (static_cast<int>(out.size()) < count)
    add_population(out, prepared, count, interchangeable_gpu_classes(prepared.model), progress);
  return out;
}

}  // namespace geotrain

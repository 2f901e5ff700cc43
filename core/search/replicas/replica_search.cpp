#include "search/replicas/replica_search.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <utility>

#include "model/input_error.hpp"
#include "model/link_table.hpp"
#include "model/replica_cost_model.hpp"
#include "search/replicas/engine_replicas.hpp"
#include "search/replicas/replica_pools.hpp"
#include "search/replicas/sub_pool.hpp"
#include "search/replicas/template_fit.hpp"
#include "search/replicas/template_refiner.hpp"
#include "search/space/engine_space.hpp"
#include "search/stopwatch.hpp"

namespace geotrain {

namespace {

bool better(const PlanCost& a, const PlanCost& b) {
  if (a.feasible != b.feasible) return a.feasible;
  return a.objective < b.objective;
}

double pool_flops(const Problem& problem, const std::vector<int>& pool) {
  double flops = 0;
  for (int g : pool) flops += problem.gpus[static_cast<std::size_t>(g)].effective_flops();
  return flops;
}

class ReplicaSearch {
 public:
  ReplicaSearch(const Problem& problem, const CostModel& model, const PoolPlanner& plan_pool,
                const ProgressCallback& progress, ReplicaSearchSettings settings)
      : problem_(problem), model_(model), plan_pool_(plan_pool), progress_(progress), settings_(settings),
        links_(std::make_shared<const LinkTable>(problem)) {}

  SolveResult run() {
    const bool automatic = problem_.search.replicas_auto;
    const std::int64_t M = problem_.model.micro_batches();
    const int fixed = automatic ? 0 : problem_.search.replicas;
    if (fixed > M)
      throw InputError("search.replicas: " + std::to_string(fixed) + " replicas need at least " +
                       std::to_string(fixed) + " micro-batches, M = global_batch_size / micro_batch_size = " +
                       std::to_string(M));
    if (fixed > static_cast<int>(problem_.gpus.size()))
      throw InputError("search.replicas: " + std::to_string(fixed) + " replicas need at least " +
                       std::to_string(fixed) + " GPUs, the pool has " + std::to_string(problem_.gpus.size()));
    const Engine engine = problem_.search.engine;
    if (const auto faults = engine_replica_setting_faults(engine, problem_); !faults.empty()) {
      if (fixed >= 2)
        throw PlanningError("search.replicas: " + std::to_string(fixed) + " replicas on search.engine \"" +
                            engine_name(engine) + "\": " + faults.front());
      plan_one_pipeline();  // "auto": replicas are beyond the engine, one pipeline is not
      return finish();
    }
    if (automatic) plan_one_pipeline();
    const int most = static_cast<int>(std::min<std::int64_t>(automatic ? kMaxAutoReplicas : fixed, M));
    const auto candidates = replica_pool_candidates(problem_, fixed, most);
    for (std::size_t k = 0; k < candidates.size() && static_cast<int>(k) < settings_.max_partitions; ++k) {
      if (cancelled_ || (has_best_ && deadline_passed())) break;
      ++tried_;
      plan_partition(candidates[k]);
    }
    if (!has_best_) {
      if (fixed >= 2)
        throw PlanningError("search.replicas: no plan of " + std::to_string(fixed) +
                            " replicas fits (each replica takes whole nodes and must hold every layer)");
      throw PlanningError("no plan fits");
    }
    return finish();
  }

 private:
  SolveResult finish() {
    if (!has_best_) throw PlanningError("no plan fits");
    best_.evaluations = evaluations_;
    best_.generations = generations_;
    best_.replica_partitions_tried = tried_;
    // What exact proves is one pool's pipeline, never the choice of replicas.
    best_.optimal.reset();
    best_.gap.reset();
    best_.lower_bound.reset();
    if (cancelled_) best_.stop_reason = "cancelled";
    return best_;
  }

  bool deadline_passed() const { return clock_.elapsed_ms() > problem_.search.time_limit_s * 1000.0; }

  // Inner runs report counts, never their sub-pool's plans (other GPU indices).
  ProgressCallback inner_progress() {
    return [this](const Progress& p) {
      Progress outer = p;
      outer.has_plan = false;
      outer.best_plan.clear(), outer.best_layout.clear();
      outer.evaluations += evaluations_;
      outer.elapsed_ms = clock_.elapsed_ms();
      if (has_best_) {
        outer.has_plan = true;
        outer.best_plan = best_.plan, outer.best_layout = best_.layout, outer.best_replicas = best_.replicas;
        outer.best_cost = best_.cost;
      }
      const bool go_on = !progress_ || progress_(outer);
      if (!go_on) cancelled_ = true;
      return go_on;
    };
  }

  // The method's own pipeline on the whole pool, then the same refined by the
  // template moves (merged neighbours may span nodes, which the method's
  // space does not offer): never worse than the method alone.
  void plan_one_pipeline() {
    SolveResult r = plan_pool_(problem_, model_, inner_progress());
    note_run(r);
    const GroupPlan stages = r.layout.empty() ? to_group_plan(r.plan) : to_group_plan(r.plan, r.layout);
    keep(r, "one pipeline");
    if (!r.cost.feasible || stages.empty()) return;
    TemplateRefiner refiner(problem_, model_, links_, single_replica(stages, problem_.model.micro_batches()));
    const PlanCost cost = refiner.run(settings_.refine_passes);
    evaluations_ += refiner.evaluations();
    if (!better(cost, r.cost)) return;
    SolveResult refined = r;
    refined.plan.clear(), refined.layout.clear();
    refined.cost = cost;
    refined.replicas = refiner.plan();
    keep(std::move(refined), "one pipeline, refined");
  }

  void note_run(const SolveResult& r) {
    evaluations_ += r.evaluations;
    generations_ += r.generations;
    if (method_.empty()) method_ = r.method;
    if (r.stop_reason == "cancelled") cancelled_ = true;
  }

  void keep(SolveResult r, const std::string& partition) {
    if (has_best_ && !better(r.cost, best_.cost)) return;
    r.replica_partition = partition;
    best_ = std::move(r);
    has_best_ = true;
  }

  // The lead pool's plan on its share of the micro-batches (cached: partitions share pools).
  std::optional<GroupPlan> lead_plan(const std::vector<int>& pool, std::int64_t micro_batches) {
    const auto key = std::make_pair(pool, micro_batches);
    if (const auto it = leads_.find(key); it != leads_.end()) return it->second;
    const SubPool sub = make_sub_pool(problem_, pool, micro_batches, model_.t_ref_s() * 1000.0, model_.e_ref_j(),
                                      model_.c_ref_g(), model_.m_ref());
    std::optional<GroupPlan> plan;
    try {
      CostModel sub_model(sub.problem);
      sub_model.copy_objective_from(model_);
      limit_stage_counts(sub_model, sub.problem);  // torch: at most the share's micro-batches
      const SolveResult r = plan_pool_(sub.problem, sub_model, inner_progress());
      note_run(r);
      if (r.cost.feasible && !r.plan.empty())
        plan = to_full_plan(sub, r.layout.empty() ? to_group_plan(r.plan) : to_group_plan(r.plan, r.layout));
    } catch (const PlanningError&) {
      // The pool cannot hold the model: this partition has no plan.
    }
    leads_.emplace(key, plan);
    return plan;
  }

  void plan_partition(const ReplicaPools& candidate) {
    const auto& pools = candidate.pools;
    const std::int64_t M = problem_.model.micro_batches();
    const int R = static_cast<int>(pools.size());
    // Engines that join replicas into data parallelism give each the same
    // share and the same groups: the weakest pool sets the pace, so it leads
    // (its plan fits the others' memory when their nodes are alike in size).
    const bool joined = engine_joins_replicas(problem_.search.engine);
    std::size_t lead = 0;
    double total = 0;
    for (std::size_t k = 0; k < pools.size(); ++k) {
      total += pool_flops(problem_, pools[k]);
      const double flops = pool_flops(problem_, pools[k]), lead_flops = pool_flops(problem_, pools[lead]);
      if (joined ? flops < lead_flops : flops > lead_flops) lead = k;
    }
    if (joined && M % R != 0) return;
    const std::int64_t share = joined ? M / R
                                      : std::clamp<std::int64_t>(
                                            std::llround(static_cast<double>(M) * pool_flops(problem_, pools[lead]) / total),
                                            1, M - (R - 1));
    const std::optional<GroupPlan> lead_stages = lead_plan(pools[lead], share);
    if (!lead_stages) return;
    std::vector<int> layers;
    for (const GroupStage& s : *lead_stages) layers.push_back(s.layers);
    ReplicaPlan plan;
    for (std::size_t k = 0; k < pools.size(); ++k) {
      std::optional<GroupPlan> stages = k == lead ? lead_stages : carry_plan(problem_, *lead_stages, pools[lead], pools[k]);
      if (!stages && !joined)
        stages = fit_template(problem_, layers, pools[k], problem_.search.parallelism == Parallelism::hybrid, *links_);
      if (!stages && joined) stages = carry_shape(problem_, *lead_stages, pools[lead], pools[k]);
      if (!stages) return;
      plan.push_back(Replica{joined ? share : 1, std::move(*stages)});
    }
    TemplateRefiner refiner(problem_, model_, links_, std::move(plan));
    const PlanCost cost = refiner.run(settings_.refine_passes);
    evaluations_ += refiner.evaluations();
    if (!engine_replica_faults(problem_.search.engine, problem_, refiner.plan()).empty()) return;
    SolveResult r;
    r.method = method_;
    r.cost = cost;
    r.replicas = refiner.plan();
    r.stop_reason = "complete";
    keep(std::move(r), candidate.label);
  }

  const Problem& problem_;
  const CostModel& model_;
  const PoolPlanner& plan_pool_;
  const ProgressCallback& progress_;
  ReplicaSearchSettings settings_;
  std::shared_ptr<const LinkTable> links_;
  Stopwatch clock_;
  std::map<std::pair<std::vector<int>, std::int64_t>, std::optional<GroupPlan>> leads_;
  SolveResult best_;
  bool has_best_ = false, cancelled_ = false;
  std::int64_t evaluations_ = 0;
  int generations_ = 0, tried_ = 0;
  std::string method_;
};

}  // namespace

SolveResult search_replicas(const Problem& problem, const CostModel& model, const PoolPlanner& plan_pool,
                            const ProgressCallback& progress, ReplicaSearchSettings settings) {
  return ReplicaSearch(problem, model, plan_pool, progress, settings).run();
}

}  // namespace geotrain

#pragma once
// The replica dimension of the plan space (replicas.md): one pipeline, or R
// copies of it on shares of the pool, each on its share of the micro-batches.
// It wraps whatever method plans one pipeline (memetic, exact, the baselines;
// pipeline or stage groups): that method plans the whole pool (R = 1) and,
// for each candidate partition (replica_pools.hpp), the strongest pool on
// its share of the micro-batches; the lead's stage template is carried to the
// other pools (template_fit.hpp), the shares are balanced to the replicas'
// speeds (micro_batch_shares.hpp), and the template is refined by moving
// single layers between neighbouring stages while the replica model
// (replica_cost_model.hpp) improves. The best plan wins, so with "auto" the
// result is never worse than the one pipeline the method finds alone.
// Deterministic: candidates in a fixed order, every run with the same seed.
// Design and measurements: docs/replicas.md.
#include <functional>

#include "model/cost_model.hpp"
#include "model/problem.hpp"
#include "search/solve_result.hpp"

namespace geotrain {

// Plans one pipeline on `problem` (the whole pool, or a replica's share with
// B = u * m_r) whose prepared `model` carries the whole problem's objective
// settings; throws PlanningError when no plan fits.
using PoolPlanner =
    std::function<SolveResult(const Problem& problem, const CostModel& model, const ProgressCallback& progress)>;

struct ReplicaSearchSettings {
  int max_partitions = 12;   // candidate partitions planned at most, in replica_pools' order
  int refine_passes = 16;    // sweeps of single-layer moves over the stage template
};

// problem.search.replicas (R >= 2: exactly R) or replicas_auto (1 and the
// partitions up to kMaxAutoReplicas); `model` is the whole problem's prepared
// model. The result is the pipeline method's own when one pipeline wins
// (plan, layout), else a replica plan (SolveResult::replicas).
SolveResult search_replicas(const Problem& problem, const CostModel& model, const PoolPlanner& plan_pool,
                            const ProgressCallback& progress = {}, ReplicaSearchSettings settings = {});

}  // namespace geotrain

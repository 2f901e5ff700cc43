#pragma once
// What every planning method returns, and what it reports while it runs.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/cost_model.hpp"
#include "model/plan.hpp"
#include "model/replica_plan.hpp"

namespace geotrain {

struct SolveResult {
  std::string method;
  Plan plan;                // over the devices of `layout`
  // The devices the plan's stages index: empty for the problem's GPUs one by
  // one (the paper's space); the stage groups a hybrid search chose otherwise.
  GroupLayout layout;
  PlanCost cost;
  std::int64_t evaluations = 0;  // cost-model evaluations (or bound evaluations, for exact)
  int generations = 0;           // memetic only
  double elapsed_ms = 0;
  std::optional<bool> optimal;   // exact methods: proven optimal
  std::optional<double> gap;     // exact: (incumbent - lower bound) / incumbent when not proven
  std::int64_t nodes = 0;        // exact: search nodes expanded
  // exact: the proven lower bound over time, a point whenever it rose by 0.1%
  // or more, the last at the end (core/EXACT.md, "Budgets, progress and the gap").
  struct BoundPoint {
    double elapsed_ms, lower_bound;
  };
  std::vector<BoundPoint> bound_history;
  int layouts_tried = 0;         // hybrid searches: stage-group layouts planned
  // search.micro_batch_size "auto" (objectives.md): the u of the plan (0: the
  // problem's own), how many u were planned and how many a bound ruled out,
  // and a lower bound over every u (the certificate of the whole choice).
  std::int64_t micro_batch_size = 0;
  int micro_batch_sizes_planned = 0, micro_batch_sizes_pruned = 0;
  std::optional<double> lower_bound;
  std::string stop_reason;       // e.g. "patience", "max_generations", "time_limit", "cancelled", "complete"
  // search.replicas (replicas.md): the plan of two or more replicas, by GPU
  // index (then `plan` and `layout` are empty), the partition it came from
  // ("one per site", ...) and how many partitions were planned.
  ReplicaPlan replicas;
  std::string replica_partition;
  int replica_partitions_tried = 0;
  // search.engine: the best plan of the whole space (engine "any") found
  // beside the engine's own, to price the engine (core/api/engine_price.hpp).
  std::shared_ptr<const SolveResult> unconstrained;
};

// A snapshot during a search; a callback returning false cancels it.
struct Progress {
  int generation = 0;
  std::int64_t evaluations = 0;
  double elapsed_ms = 0;
  bool has_plan = false;
  Plan best_plan;
  GroupLayout best_layout;  // as SolveResult::layout
  ReplicaPlan best_replicas;  // as SolveResult::replicas (then best_plan is empty)
  PlanCost best_cost;
  // exact: nodes expanded, and the least lower bound over what is still open
  // (known once every stage count has its root bound).
  std::optional<std::int64_t> nodes;
  std::optional<double> lower_bound;
};

using ProgressCallback = std::function<bool(const Progress&)>;

}  // namespace geotrain

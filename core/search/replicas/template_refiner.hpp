#pragma once
// Improves a replica plan (replicas.md) by moves on its stage template, each
// applied to every replica at once and kept when the replica model's
// objective improves (feasible first):
//   - shift: one layer from a stage to its neighbour;
//   - merge: two neighbouring stages become one of their layers on the union
//     of their groups (on one site), tensor ranks inside a node and data
//     shards across nodes, as Metis and Megatron-LM place them: fewer, longer
//     stages, less bubble, less activation memory, a data-parallel sync more;
//   - share: one micro-batch from a replica to another (the balance after
//     every move minimises the slowest pipeline, blind to energy).
// After every template move the shares are balanced to the replicas' paces
// (micro_batch_shares.hpp). Deterministic: moves are tried in a fixed order.
// Under search.engine a merge is kept only when the engine can still run the
// plan (engine_replicas.hpp), and engines that join replicas into data
// parallelism keep every share equal (no balance, no share moves).
#include <memory>

#include "model/cost_model.hpp"
#include "model/link_table.hpp"
#include "model/replica_cost_model.hpp"
#include "model/replica_plan.hpp"

namespace geotrain {

class TemplateRefiner {
 public:
  // `objective` carries the weights, references and stage-count range.
  TemplateRefiner(const Problem& problem, const CostModel& objective, std::shared_ptr<const LinkTable> links,
                  ReplicaPlan plan);

  // Up to `passes` sweeps of every move; returns the plan's cost.
  PlanCost run(int passes, bool merges = true);
  // The plan, its template and shares as refined.
  ReplicaPlan plan() const;
  std::int64_t evaluations() const { return evaluations_; }

 private:
  void rebuild(ReplicaPlan plan);
  PlanCost evaluate();
  void rebalance();
  bool try_shift(std::size_t q, int direction);
  bool try_merges();
  bool nudge_shares();

  bool allowed(const ReplicaPlan& plan) const;

  const Problem& problem_;
  const CostModel& objective_;
  bool fixed_shares_ = false;
  std::shared_ptr<const LinkTable> links_;
  ReplicaPlan plan_;  // its groups; layers and shares live in model_ while refining
  std::unique_ptr<ReplicaPlanModel> model_;
  PlanCost cost_;
  std::int64_t evaluations_ = 0;
};

}  // namespace geotrain

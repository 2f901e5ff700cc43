#pragma once
// What each training engine can launch (search.engine), as one filter on the
// plan space that every method inherits: the pipeline model's stage counts
// and LayoutSpace's choices of node shapes and devices (hybrid_layouts.hpp).
// The launch bundle (core/launch/) asks the same rules whether it can run a
// finished plan, so a plan made for an engine is always launchable on it.
//
//   engine         a stage group may be             every stage shares    stages
//   any            any shape (s GPUs, t | s)        nothing               any
//   megatron-core  any shape                        t and d               any
//   deepspeed      t = 1 (d data shards)            d                     any
//   torch          t = 1 (d data shards)            d                     at most M
//   flashflex      any t dividing its config's      d                     any
//                  attention heads
//
// Megatron-Core: one --tensor-model-parallel-size and one data-parallel size
//   for the whole model; any layer split (--pipeline-model-parallel-layout)
//   and any GPU order (the rank map).
// DeepSpeed: PipelineModule has no tensor parallelism of its own, and
//   PipeDataParallelTopology one data-parallel size.
// torch.distributed.pipelining (the bundle's template): no tensor
//   parallelism, d parallel pipelines; Schedule1F1B refuses fewer
//   micro-batches than stages in newer releases (checked in torch main).
// FlashFlex: a tensor degree per stage (--hetero_configs), d parallel
//   pipelines of the same stage template (one per data shard).
#include <string>
#include <utility>
#include <vector>

#include "model/cost_model.hpp"
#include "model/group_layout.hpp"
#include "model/group_plan.hpp"
#include "model/problem.hpp"
#include "search/space/node_shapes.hpp"

namespace geotrain {

class EngineSpace {
 public:
  explicit EngineSpace(const Problem& problem);

  Engine engine() const { return engine_; }
  bool any() const { return engine_ == Engine::any; }

  // Whether stages may differ in shape (any, flashflex); the others want one
  // shape for every stage.
  bool allows_mixed_shapes() const { return engine_ == Engine::any || engine_ == Engine::flashflex; }
  // A stage group of this shape is one the engine can run.
  bool allows_shape(const GroupShape& shape) const;
  // Every node's shape is allowed and every cut node's shape shares the
  // degrees all stages must share.
  bool allows_choice(const std::vector<PoolNode>& nodes, const ShapeChoice& choice) const;
  // The choice's groups that can serve in one plan together: those with the
  // degrees of its cut nodes (uncut nodes' single GPUs drop out when those
  // are not t = d = 1).
  GroupLayout devices(const std::vector<PoolNode>& nodes, const ShapeChoice& choice) const;
  // Whether the engine removes some plan of the problem's space
  // (search.parallelism) on this pool: then its price is worth a second search.
  bool restricts(const std::vector<PoolNode>& nodes, const Problem& problem) const;
  // Stages a plan may have at most (M for torch), or -1 for no limit.
  int most_stages(const ModelConfig& model) const;

 private:
  // The degrees (t, d) every stage of a plan must share; 0 where free.
  std::pair<int, int> shared_degrees(const GroupShape& shape) const;
  std::pair<int, int> choice_degrees(const std::vector<PoolNode>& nodes, const ShapeChoice& choice) const;

  Engine engine_;
  int heads_ = 0;  // flashflex: its config's attention heads (0: no config fits)
};

// Why the problem has no plan the engine can run at all (empty when it has
// some): FlashFlex with no llama config whose heads divide the hidden size.
std::string engine_refusal(const Problem& problem);

// The pipeline model under the engine's stage-count limit (torch: at most M
// stages), inside any range already set. Throws PlanningError when the two
// ranges do not meet.
void limit_stage_counts(CostModel& model, const Problem& problem);

// Why `engine` cannot run `plan`, one "cannot express because ..." sentence
// per reason; empty when it can. The launch targets print these.
// Only the model's fields matter, so callers that vary the batch (a replica's
// share, joined replicas) pass a ModelConfig instead of copying the Problem.
std::vector<std::string> engine_plan_faults(Engine engine, const ModelConfig& model, const GroupPlan& plan);
inline std::vector<std::string> engine_plan_faults(Engine engine, const Problem& problem, const GroupPlan& plan) {
  return engine_plan_faults(engine, problem.model, plan);
}

}  // namespace geotrain

#pragma once
// What every search over stage-group layouts shares: the pool's nodes and
// shapes, the links resolved once, and a cost model per layout that carries
// the prepared model's objective (lambda, references) and stage-count range.
#include <memory>
#include <optional>
#include <vector>

#include "model/cost_model.hpp"
#include "model/problem.hpp"
#include "search/space/node_shapes.hpp"
#include "search/solve_result.hpp"

namespace geotrain {

class LayoutSpace {
 public:
  // `pipeline` is the problem's prepared one-GPU-per-device model: its
  // objective settings are copied into every layout's model, so that
  // objectives compare across layouts (and with pipeline plans).
  LayoutSpace(const Problem& problem, const CostModel& pipeline);

  const Problem& problem() const { return problem_; }
  const std::vector<PoolNode>& nodes() const { return nodes_; }
  ShapeChoice pipeline_choice() const { return ShapeChoice(nodes_.size(), 0); }
  bool is_pipeline(const ShapeChoice& choice) const;

  // The model over the choice's groups, with the shared objective settings;
  // for one GPU a device, a copy of the pipeline model (GPUs in file order).
  std::unique_ptr<CostModel> model(const ShapeChoice& choice) const;

  // The candidates every layout search starts from, pipeline first: one GPU a
  // device, then each shape on every node that can take it, then (when there
  // are at most `enumerate_up_to` choices in all) every other choice.
  std::vector<ShapeChoice> starting_choices(long long enumerate_up_to) const;

  // Neighbours of `choice`: every kind of node moved to another of its
  // shapes, then (when `per_node`) every single node moved.
  std::vector<ShapeChoice> neighbours(const ShapeChoice& choice, bool per_node) const;
  // Nodes with more than one shape.
  int flexible_nodes() const;

 private:
  const Problem& problem_;
  const CostModel& pipeline_;
  std::vector<PoolNode> nodes_;
  std::vector<std::optional<ResolvedLink>> links_;
};

// Whether `a` beats `b`: feasible first, then lower objective (ties do not).
bool better_result(const PlanCost& a, const PlanCost& b);

}  // namespace geotrain

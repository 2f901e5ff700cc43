#pragma once
// What every search over stage-group layouts shares: the pool's nodes and
// shapes, the links resolved once, and a cost model per layout that carries
// the prepared model's objective (lambda, references) and stage-count range.
// Every choice it hands out is one the problem's engine can run
// (engine_space.hpp): the methods over layouts inherit search.engine here.
#include <memory>
#include <optional>
#include <vector>

#include "model/cost_model.hpp"
#include "model/problem.hpp"
#include "search/space/engine_space.hpp"
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

  // Every choice, pipeline first; an engine that wants one shape for every
  // stage needs only one choice per shape (a plan that leaves nodes out is a
  // plan over the uniform choice). Throws PlanningError, naming `method`, when
  // there are more than `cap`.
  std::vector<ShapeChoice> every_choice(long long cap, const char* method) const;
  // Every node that can take a shape in that shape, one choice per shape the
  // engine allows (the choices Metis' degree search stands for).
  std::vector<ShapeChoice> uniform_choices() const;
  // The plan an engineer writes by hand: each node as one group of its
  // largest allowed shape, tensor parallel across it where allowed.
  ShapeChoice whole_node_choice() const;
  const EngineSpace& engine() const { return engine_; }

 private:
  const Problem& problem_;
  const CostModel& pipeline_;
  EngineSpace engine_;
  std::vector<PoolNode> nodes_;
  std::vector<std::optional<ResolvedLink>> links_;
};

// Whether `a` beats `b`: feasible first, then lower objective (ties do not).
bool better_result(const PlanCost& a, const PlanCost& b);

}  // namespace geotrain

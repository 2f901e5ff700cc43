#include "search/space/hybrid_layouts.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include "model/input_error.hpp"

namespace geotrain {

LayoutSpace::LayoutSpace(const Problem& problem, const CostModel& pipeline)
    : problem_(problem), pipeline_(pipeline), engine_(problem), nodes_(pool_nodes(problem)),
      links_(resolve_links(problem.network, problem.gpus)) {}

bool LayoutSpace::is_pipeline(const ShapeChoice& choice) const {
  return std::all_of(choice.begin(), choice.end(), [](int c) { return c == 0; });
}

std::unique_ptr<CostModel> LayoutSpace::model(const ShapeChoice& choice) const {
  // One GPU a device in file order: exactly the prepared pipeline model, so
  // that a search of this layout is the pipeline search itself.
  if (is_pipeline(choice)) return std::make_unique<CostModel>(pipeline_);
  auto model = std::make_unique<CostModel>(problem_, engine_.devices(nodes_, choice), links_);
  model->copy_objective_from(pipeline_);
  if (pipeline_.fewest_stages() > 1 || pipeline_.most_stages() < std::numeric_limits<int>::max())
    model->set_stage_count_range(pipeline_.fewest_stages(), pipeline_.most_stages());
  return model;
}

std::vector<ShapeChoice> LayoutSpace::starting_choices(long long enumerate_up_to) const {
  std::vector<ShapeChoice> choices{pipeline_choice()};
  std::set<ShapeChoice> seen{choices.front()};
  auto add = [&](const ShapeChoice& c) {
    if (engine_.allows_choice(nodes_, c) && seen.insert(c).second) choices.push_back(c);
  };
  for (const GroupShape& shape : all_shapes(nodes_)) add(uniform_choice(nodes_, shape));
  if (count_choices(nodes_, enumerate_up_to) <= enumerate_up_to) {
    ShapeChoice c = pipeline_choice();
    while (next_choice(nodes_, c)) add(c);
  }
  return choices;
}

std::vector<ShapeChoice> LayoutSpace::neighbours(const ShapeChoice& choice, bool per_node) const {
  std::vector<ShapeChoice> out;
  int kinds = 0;
  for (const PoolNode& node : nodes_) kinds = std::max(kinds, node.kind + 1);
  for (int kind = 0; kind < kinds; ++kind) {
    std::size_t first = 0;
    while (first < nodes_.size() && nodes_[first].kind != kind) ++first;
    if (first == nodes_.size()) continue;
    for (std::size_t s = 0; s < nodes_[first].shapes.size(); ++s) {
      ShapeChoice c = choice;
      for (std::size_t n = 0; n < nodes_.size(); ++n)
        if (nodes_[n].kind == kind) c[n] = static_cast<int>(s);
      if (c != choice && engine_.allows_choice(nodes_, c)) out.push_back(std::move(c));
    }
  }
  if (!per_node) return out;
  for (std::size_t n = 0; n < nodes_.size(); ++n) {
    for (std::size_t s = 0; s < nodes_[n].shapes.size(); ++s) {
      if (static_cast<int>(s) == choice[n]) continue;
      ShapeChoice c = choice;
      c[n] = static_cast<int>(s);
      if (engine_.allows_choice(nodes_, c) && std::find(out.begin(), out.end(), c) == out.end())
        out.push_back(std::move(c));
    }
  }
  return out;
}

int LayoutSpace::flexible_nodes() const {
  return static_cast<int>(std::count_if(nodes_.begin(), nodes_.end(), [](const PoolNode& n) { return n.shapes.size() > 1; }));
}

std::vector<ShapeChoice> LayoutSpace::every_choice(long long cap, const char* method) const {
  std::vector<ShapeChoice> choices;
  if (!engine_.any() && !engine_.allows_mixed_shapes()) {
    choices = uniform_choices();
    choices.insert(choices.begin(), pipeline_choice());
    choices.erase(std::unique(choices.begin(), choices.end()), choices.end());
    return choices;
  }
  if (count_choices(nodes_, cap) > cap) {
    char text[300];
    std::snprintf(text, sizeof text,
                  "%s refused: the pool's nodes can be cut into stage groups in more than %lld ways; use "
                  "--method memetic, or search.parallelism \"pipeline\"",
                  method, cap);
    throw PlanningError(text);
  }
  ShapeChoice c = pipeline_choice();
  do
    if (engine_.allows_choice(nodes_, c)) choices.push_back(c);
  while (next_choice(nodes_, c));
  return choices;
}

std::vector<ShapeChoice> LayoutSpace::uniform_choices() const {
  std::vector<ShapeChoice> choices;
  for (const GroupShape& shape : all_shapes(nodes_)) {
    ShapeChoice c = uniform_choice(nodes_, shape);
    if (engine_.allows_choice(nodes_, c) && std::find(choices.begin(), choices.end(), c) == choices.end())
      choices.push_back(std::move(c));
  }
  return choices;
}

ShapeChoice LayoutSpace::whole_node_choice() const {
  ShapeChoice choice(nodes_.size(), 0);
  for (std::size_t n = 0; n < nodes_.size(); ++n) {
    // The whole node, tensor parallel across it (as before engines: any engine's rule).
    const int size = static_cast<int>(nodes_[n].gpus.size());
    const int whole = shape_index(nodes_[n], GroupShape{size, std::min(size, kMaxTensorParallel)});
    if (engine_.any() || (whole >= 0 && engine_.allows_shape(nodes_[n].shapes[static_cast<std::size_t>(whole)]))) {
      choice[n] = std::max(0, whole);
      continue;
    }
    const std::vector<GroupShape>& shapes = nodes_[n].shapes;
    for (std::size_t k = 0; k < shapes.size(); ++k) {
      const GroupShape& best = shapes[static_cast<std::size_t>(choice[n])];
      const bool larger = shapes[k].size > best.size ||
                          (shapes[k].size == best.size && shapes[k].tensor_parallel > best.tensor_parallel);
      if (larger && engine_.allows_shape(shapes[k])) choice[n] = static_cast<int>(k);
    }
  }
  if (engine_.allows_choice(nodes_, choice)) return choice;
  // One shape for every stage: the first node's, on every node that can take it.
  for (std::size_t n = 0; n < nodes_.size(); ++n)
    if (choice[n] != 0) return uniform_choice(nodes_, nodes_[n].shapes[static_cast<std::size_t>(choice[n])]);
  return pipeline_choice();
}

bool better_result(const PlanCost& a, const PlanCost& b) {
  if (a.feasible != b.feasible) return a.feasible;
  return a.objective < b.objective;
}

}  // namespace geotrain

#include "search/space/hybrid_layouts.hpp"

#include <algorithm>
#include <set>

namespace geotrain {

LayoutSpace::LayoutSpace(const Problem& problem, const CostModel& pipeline)
    : problem_(problem), pipeline_(pipeline), nodes_(pool_nodes(problem)),
      links_(resolve_links(problem.network, problem.gpus)) {}

bool LayoutSpace::is_pipeline(const ShapeChoice& choice) const {
  return std::all_of(choice.begin(), choice.end(), [](int c) { return c == 0; });
}

std::unique_ptr<CostModel> LayoutSpace::model(const ShapeChoice& choice) const {
  // One GPU a device in file order: exactly the prepared pipeline model, so
  // that a search of this layout is the pipeline search itself.
  if (is_pipeline(choice)) return std::make_unique<CostModel>(pipeline_);
  auto model = std::make_unique<CostModel>(problem_, layout_of_choice(nodes_, choice), links_);
  model->copy_objective_from(pipeline_);
  if (pipeline_.fewest_stages() > 1 || pipeline_.most_stages() < std::numeric_limits<int>::max())
    model->set_stage_count_range(pipeline_.fewest_stages(), pipeline_.most_stages());
  return model;
}

std::vector<ShapeChoice> LayoutSpace::starting_choices(long long enumerate_up_to) const {
  std::vector<ShapeChoice> choices{pipeline_choice()};
  std::set<ShapeChoice> seen{choices.front()};
  auto add = [&](const ShapeChoice& c) {
    if (seen.insert(c).second) choices.push_back(c);
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
      if (c != choice) out.push_back(std::move(c));
    }
  }
  if (!per_node) return out;
  for (std::size_t n = 0; n < nodes_.size(); ++n) {
    for (std::size_t s = 0; s < nodes_[n].shapes.size(); ++s) {
      if (static_cast<int>(s) == choice[n]) continue;
      ShapeChoice c = choice;
      c[n] = static_cast<int>(s);
      if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(std::move(c));
    }
  }
  return out;
}

int LayoutSpace::flexible_nodes() const {
  return static_cast<int>(std::count_if(nodes_.begin(), nodes_.end(), [](const PoolNode& n) { return n.shapes.size() > 1; }));
}

bool better_result(const PlanCost& a, const PlanCost& b) {
  if (a.feasible != b.feasible) return a.feasible;
  return a.objective < b.objective;
}

}  // namespace geotrain

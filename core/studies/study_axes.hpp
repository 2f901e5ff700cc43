#pragma once
// The figures a trade-off study can put on its two axes (objectives.md):
// iteration time, energy, carbon and money per iteration. The pareto study
// sweeps w over its lambdas and plans with the weights {A: w, B: 1 - w}
// (the others 0), so axes {time, energy} are the paper's lambda sweep.
#include <optional>
#include <string>

#include "model/cost_model.hpp"
#include "model/problem.hpp"

namespace geotrain {

enum class StudyAxis { time, energy, carbon, cost };

struct StudyAxes {
  StudyAxis x = StudyAxis::time;    // weighted by w; Table 7's first delta
  StudyAxis y = StudyAxis::energy;  // weighted by 1 - w

  // The paper's lambda sweep: its output is exactly what it always was.
  bool is_time_energy() const { return x == StudyAxis::time && y == StudyAxis::energy; }
};

const char* axis_name(StudyAxis axis);                          // "time", "energy", "carbon", "cost"
std::optional<StudyAxis> axis_from_name(const std::string& name);
const char* axis_figure_field(StudyAxis axis);                  // "iteration_ms", "energy_j", "carbon_g", "cost"
const char* axis_delta_field(StudyAxis axis);                   // "delta_t_pct", "delta_e_pct", "delta_c_pct", "delta_m_pct"

// The figure a plan's cost gives on the axis, in the unit the frontier
// compares: seconds (as the paper's lambda sweep always compared), joules,
// grams, money. The knee normalises both axes, so the unit never matters.
double axis_value(const PlanCost& cost, StudyAxis axis);

// {x: w, y: 1 - w}, the other two 0.
ObjectiveWeights axis_weights(const StudyAxes& axes, double w);

// The weight of `axis` in `weights`.
double weight_of(const ObjectiveWeights& weights, StudyAxis axis);

}  // namespace geotrain

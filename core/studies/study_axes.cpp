#include "studies/study_axes.hpp"

namespace geotrain {

namespace {

constexpr StudyAxis kAxes[] = {StudyAxis::time, StudyAxis::energy, StudyAxis::carbon, StudyAxis::cost};

double& weight_ref(ObjectiveWeights& weights, StudyAxis axis) {
  switch (axis) {
    case StudyAxis::time: return weights.time;
    case StudyAxis::energy: return weights.energy;
    case StudyAxis::carbon: return weights.carbon;
    case StudyAxis::cost: return weights.cost;
  }
  return weights.time;
}

}  // namespace

const char* axis_name(StudyAxis axis) {
  switch (axis) {
    case StudyAxis::time: return "time";
    case StudyAxis::energy: return "energy";
    case StudyAxis::carbon: return "carbon";
    case StudyAxis::cost: return "cost";
  }
  return "";
}

std::optional<StudyAxis> axis_from_name(const std::string& name) {
  for (StudyAxis a : kAxes)
    if (name == axis_name(a)) return a;
  return std::nullopt;
}

const char* axis_figure_field(StudyAxis axis) {
  switch (axis) {
    case StudyAxis::time: return "iteration_ms";
    case StudyAxis::energy: return "energy_j";
    case StudyAxis::carbon: return "carbon_g";
    case StudyAxis::cost: return "cost";
  }
  return "";
}

const char* axis_delta_field(StudyAxis axis) {
  switch (axis) {
    case StudyAxis::time: return "delta_t_pct";
    case StudyAxis::energy: return "delta_e_pct";
    case StudyAxis::carbon: return "delta_c_pct";
    case StudyAxis::cost: return "delta_m_pct";
  }
  return "";
}

double axis_value(const PlanCost& cost, StudyAxis axis) {
  switch (axis) {
    case StudyAxis::time: return cost.iteration_s;
    case StudyAxis::energy: return cost.energy_j;
    case StudyAxis::carbon: return cost.carbon_g;
    case StudyAxis::cost: return cost.cost;
  }
  return 0;
}

ObjectiveWeights axis_weights(const StudyAxes& axes, double w) {
  ObjectiveWeights weights{0, 0, 0, 0};
  weight_ref(weights, axes.x) = w;
  weight_ref(weights, axes.y) = 1.0 - w;
  return weights;
}

double weight_of(const ObjectiveWeights& weights, StudyAxis axis) {
  ObjectiveWeights copy = weights;
  return weight_ref(copy, axis);
}

}  // namespace geotrain

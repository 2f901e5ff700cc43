#include "launch/plan_shape.hpp"

#include <algorithm>

namespace geotrain {

namespace {

// "stage 1 has tensor_parallel 1, stage 2 has 2" for the first stage that differs from stage 1.
std::string first_difference(const GroupPlan& plan, int (*degree)(const GroupStage&), const char* name) {
  for (std::size_t q = 1; q < plan.size(); ++q)
    if (degree(plan[q]) != degree(plan[0]))
      return std::string("stage 1 has ") + name + " " + std::to_string(degree(plan[0])) + ", stage " +
             std::to_string(q + 1) + " has " + std::to_string(degree(plan[q]));
  return "";
}

int tensor_of(const GroupStage& s) { return s.tensor_parallel; }
int data_of(const GroupStage& s) { return s.data_parallel(); }

}  // namespace

PlanShape plan_shape(const GroupPlan& plan) {
  PlanShape shape;
  if (plan.empty()) return shape;
  shape.tensor_parallel = plan[0].tensor_parallel;
  shape.data_parallel = plan[0].data_parallel();
  for (const GroupStage& s : plan) {
    shape.tensor_parallel = std::min(shape.tensor_parallel, s.tensor_parallel);
    shape.data_parallel = std::min(shape.data_parallel, s.data_parallel());
  }
  for (auto [degree, name] : {std::pair{&tensor_of, "tensor_parallel"}, std::pair{&data_of, "data_parallel"}}) {
    std::string difference = first_difference(plan, degree, name);
    if (!difference.empty()) shape.mixed.push_back(difference);
  }
  return shape;
}

GroupPlan uniform_subplan(const GroupPlan& plan, int tensor_parallel, int data_parallel) {
  GroupPlan out;
  for (const GroupStage& s : plan) {
    GroupStage cut{{}, tensor_parallel, s.layers};
    for (int j = 0; j < data_parallel; ++j)
      for (int i = 0; i < tensor_parallel; ++i) cut.gpus.push_back(s.gpus[j * s.tensor_parallel + i]);
    out.push_back(cut);
  }
  return out;
}

}  // namespace geotrain

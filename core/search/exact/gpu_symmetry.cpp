#include "search/exact/gpu_symmetry.hpp"

namespace geotrain {

bool interchangeable(const CostModel& model, int i, int j) {
  if (i == j) return true;
  if (model.layer_compute_s(i) != model.layer_compute_s(j) || model.head_compute_s(i) != model.head_compute_s(j) ||
      model.idle_w(i) != model.idle_w(j) || model.active_w(i) != model.active_w(j) ||
      model.memory_limit_bytes(i) != model.memory_limit_bytes(j))
    return false;
  // Sites with other carbon or prices, and other rents, make GPUs differ too.
  if (model.carbon_idle_g_per_s(i) != model.carbon_idle_g_per_s(j) ||
      model.carbon_active_g_per_s(i) != model.carbon_active_g_per_s(j) ||
      model.money_idle_per_s(i) != model.money_idle_per_s(j) || model.money_active_per_s(i) != model.money_active_per_s(j))
    return false;
  if (model.send_s(i, j) != model.send_s(j, i)) return false;
  for (int k = 0; k < model.num_gpus(); ++k) {
    if (k == i || k == j) continue;
    if (model.send_s(i, k) != model.send_s(j, k) || model.send_s(k, i) != model.send_s(k, j)) return false;
  }
  return true;
}

GpuClasses interchangeable_gpu_classes(const CostModel& model) {
  GpuClasses classes;
  classes.class_of.assign(model.num_gpus(), -1);
  for (int g = 0; g < model.num_gpus(); ++g) {
    for (int c = 0; c < static_cast<int>(classes.members.size()) && classes.class_of[g] < 0; ++c)
      if (interchangeable(model, classes.members[c].front(), g)) classes.class_of[g] = c;
    if (classes.class_of[g] < 0) {
      classes.class_of[g] = static_cast<int>(classes.members.size());
      classes.members.emplace_back();
    }
    classes.members[classes.class_of[g]].push_back(g);
  }
  return classes;
}

}  // namespace geotrain

#include "search/bounds/pool_relaxation.hpp"

#include <algorithm>
#include <cmath>

namespace geotrain {

double any_plan_lower_bound(const CostModel& pipeline) {
  const int n = pipeline.num_gpus();
  if (n == 0) return 0.0;
  // rho: the LM head in layers (the same ratio on every GPU).
  const double rho = pipeline.head_compute_s(0) / pipeline.layer_compute_s(0);
  const double layers = pipeline.num_layers() + rho;
  double layers_per_s = 0, least_idle_w = INFINITY, least_active_j = INFINITY;
  for (int g = 0; g < n; ++g) {
    layers_per_s += 1.0 / pipeline.layer_compute_s(g);
    least_idle_w = std::min(least_idle_w, pipeline.bound_idle_w(g));
    least_active_j = std::min(least_active_j, pipeline.bound_active_extra_w(g) * pipeline.layer_compute_s(g));
  }
  const double M = pipeline.micro_batches();
  const double time_s = M * layers / layers_per_s;
  const double bound = pipeline.bound_objective(time_s, time_s * least_idle_w + M * layers * least_active_j);
  return std::isfinite(bound) && bound > 0 ? bound : 0.0;
}

}  // namespace geotrain

#pragma once
// A lower bound valid for every plan of a problem at once: any GPUs, any
// stage groups (tensor and data parallel, any layout), any stage count and
// any micro-batch size u. Stage-group searches and "auto" micro-batch runs
// report it as their certificate, where the pipeline certificate
// (certificate.hpp) bounds only one-GPU stages at one u.
//
// Why it holds (core/EXACT.md, "A bound for every plan"): a stage's compute
// is at least its FLOPs over the sum of its GPUs' speeds (a shard of t GPUs
// at its slowest GPU's pace, d shards sharing the micro-batch), so the
// slowest stage computes at least (L + rho) layer-micro-batches over the
// whole pool's speed, and T_iter >= M times that. Every GPU computes at least
// its share of the FLOPs at its own speed, so the active energy (and carbon
// and money, through the bound powers) is at least (L + rho) layers at the
// pool's cheapest rate per layer, M times; the idle draw is at least the
// least idle power over T_iter. M * u = B, so none of it depends on u.
#include "model/cost_model.hpp"

namespace geotrain {

// `pipeline` is the problem's model over single GPUs, with its objective's
// weights and references installed.
double any_plan_lower_bound(const CostModel& pipeline);

}  // namespace geotrain

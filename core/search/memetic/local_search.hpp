#pragma once
// Capacity-rebalancing local search (paper, Sect. 5.5, Alg. 4).
#include "search/memetic/chromosome.hpp"

namespace geotrain {

// Alg. 4 on layer counts alone, repeated until no step changes them. Stages
// keep their GPUs and order; a stage's load is n_q * (one layer's compute
// time on its GPU), proportional to the paper's n_q / F_gq. Each step moves
// layers from the highest-load stage holding at least two layers (`worst`)
// to the lowest-load other stage with memory headroom (`best`), and only
// when best's GPU is strictly faster (line 6). The count is the paper's
// Delta (lines 7-10), or Delta - 1 when that balances the pair better, and
// the step is taken only when it strictly lowers max(load_worst, load_best):
// without that rule a one-layer transfer can make the pair worse and the
// loop oscillate. Ties go to the lower stage index. Returns the number of
// steps taken; capacities come from the model (memory at Q stages).
int rebalance_layers(const CostModel& model, const int* stage_gpu, int* stage_layers, int stage_count,
                     int* capacity_scratch);

// Alg. 4 on `child`: decode, rebalance, rebuild the genes. The refined
// chromosome replaces `child` (with its cost) when it is feasible and its
// objective is not worse; the loads are a compute-only proxy, so the true
// objective decides. Returns true when `child` changed; one evaluation when
// the counts changed, none otherwise. Works on child's stage list (no
// decoding); uses the context's stage_* and stages_child scratch; capacities
// from the context's max_layers (the model's, cached).
bool rebalance_capacity(Chromosome& child, OperatorContext& context);

}  // namespace geotrain

#pragma once
// Stage-boundary-aware best-cut crossover (paper, Sect. 5.3, Alg. 2).
#include <cstdint>

#include "search/memetic/chromosome.hpp"
#include "search/random.hpp"

namespace geotrain {

// Children of p1 and p2 (whose genes differ): c1 = p1[:b] + p2[b:] and
// c2 = p2[:b] + p1[b:], each at the cut b that makes it fittest. Cuts are the
// union of both parents' stage boundaries; with probability `fallback_rate`
// (p_fall) every cut 1..L-1 instead. A cut whose child reuses a GPU in two
// runs, or does not fit in memory, is skipped. Of equally fit cuts the
// smallest wins. Writes 0, 1 or 2 children (c1 first) into `children`, with
// their costs and stage lists, and returns how many; their genes are stale
// (genes_of or write_genes writes them). Uses the context's stages_*,
// starts_*, sums_*, the index_stages and cut-word scratch; one uniform draw
// from `rng`. The valid cuts are found as bit masks in O(Q + (N + L) / 64)
// from the parents' index_stages, and each is costed
// from the parents' stage lists and stage sums (evaluate_joined), O(Q) per
// candidate; O(L) per crossover to decode the parents and sum their stages,
// none with both given as stages (below).
int boundary_crossover(const Chromosome& p1, const Chromosome& p2, double fallback_rate, Rng& rng,
                       OperatorContext& context, Chromosome* children);

// A chromosome as stages: stage q is stages[q], from layer starts[q], with
// starts[count] = L. The buffers (L and L + 1 long) belong to the caller.
// `sums` (the stages' stage_sums, count long) is what crossover costs its
// candidates from (evaluate_joined: a lookup for the prefix, one addition
// per term for each suffix stage); decode_stages leaves it as it is.
// `cut_bits`, `gpu_bits` and `stage_of_gpu` are the stages' index_stages,
// where the valid cuts come from; a view without them (null) is indexed by
// the crossover into the context's scratch.
struct StageView {
  Stage* stages;
  int* starts;
  int count = 0;
  const StageSums* sums = nullptr;
  const std::uint64_t* cut_bits = nullptr;
  const std::uint64_t* gpu_bits = nullptr;
  const int* stage_of_gpu = nullptr;
};
void decode_stages(const int* genes, int num_layers, StageView& out);

// The same with both parents given as stages (their genes' decode_stages):
// the memetic loop decodes each population member once per generation, not
// once per crossover it takes part in.
int boundary_crossover(const StageView& stages_1, const StageView& stages_2, double fallback_rate, Rng& rng,
                       OperatorContext& context, Chromosome* children);

}  // namespace geotrain

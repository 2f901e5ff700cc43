#pragma once
// Contiguity-preserving mutation (paper, Sect. 5.4, Alg. 3).
#include "search/memetic/chromosome.hpp"
#include "search/random.hpp"

namespace geotrain {

// The paper's three moves, and two that change the stage count (not in the
// paper; MEMETIC.md, "Growing and shrinking the pipeline").
// Then the moves at the scale of sites and stages (site_moves.hpp; issue 23).
enum class MutationKind {
  boundary_shift,
  stage_swap,
  gpu_reassignment,
  stage_split,
  stage_merge,
  layer_balance,
  neighbour_merge,
  pipeline_contract,
  pipeline_grow,
  site_gather,
  site_drop,
  site_add,
  site_move
};
constexpr int kMutationKinds = 13;
// Pools of at most this many GPUs draw among the paper's three moves only:
// there the two others cost optima on deep models (MEMETIC.md, measured).
constexpr int kPaperMovesMaxGpus = 16;
// Larger pools draw among the first kStageScaleKinds kinds on one site, and
// among all of them on several.
constexpr int kStageScaleKinds = 9;

// The three moves, on genes in place. Each keeps every GPU's layers
// contiguous by construction and returns false, leaving the genes untouched,
// when it does not apply. They use the context's stages_b and gpus scratch
// (never genes_a or genes_b) and evaluate nothing. mutate applies the same
// moves to the chromosome's stage list (the same draws, the same result).

// Lines 2-5: a uniformly drawn boundary b (genes[b] != genes[b-1]) moves the
// left stage's last layer to the right stage. Needs two stages. With
// both_ways, a fair coin (drawn after b) may instead move the right stage's
// first layer to the left stage.
bool shift_boundary(int* genes, Rng& rng, OperatorContext& context, bool both_ways = false);

// Lines 6-8: two distinct stages, drawn uniformly, trade places; each keeps
// its GPU and its length, and the stages between them shift accordingly:
// genes[s1.start : s2.end] <- genes[s2] + genes[s1.end : s2.start] + genes[s1].
bool swap_stages(int* genes, Rng& rng, OperatorContext& context);

// Lines 10-14: a uniformly drawn stage moves, whole, to a GPU drawn uniformly
// from those the chromosome does not use. Needs an unused GPU.
bool reassign_gpu(int* genes, Rng& rng, OperatorContext& context);

// Splits stage `stage` (two layers or more) onto an unused GPU placed right
// after it: of the unused GPUs, one of the kSplitCandidates whose estimated
// new stage (half the layers' compute plus the round trip to the split
// stage's GPU) is cheapest, uniformly; layers divided in proportion to the
// two GPUs' speeds (at least one each). Needs an unused GPU.
constexpr int kSplitCandidates = 3;
bool split_stage(int* genes, int stage, Rng& rng, OperatorContext& context);

// A uniformly drawn stage joins a uniformly drawn neighbour (its layers move
// to the neighbour's GPU), freeing its GPU. Needs two stages.
bool merge_stage(int* genes, Rng& rng, OperatorContext& context);

// Alg. 3 on a copy of `child`: the kind is drawn uniformly (among the
// paper's three on pools of at most kPaperMovesMaxGpus GPUs), then the move.
// The split applies to child's bottleneck stage (its cost says which), so
// that a pipeline grows where it is slowest.
// The mutant replaces `child` (with its cost) only when it fits in memory
// (line 15); otherwise, or when the move does not apply, `child` stays as it
// was. Returns true when `child` changed. One evaluation per applied move.
// `moves` switches the moves at the scale of sites and stages (on pools of
// more than kPaperMovesMaxGpus devices; the site moves on two sites or more).
bool mutate(Chromosome& child, Rng& rng, OperatorContext& context, bool shift_both_ways = false,
            const ScaleMoves& moves = {});
// The same with the kind given (the kind's draw skipped).
bool mutate(Chromosome& child, MutationKind kind, Rng& rng, OperatorContext& context, bool shift_both_ways = false);

}  // namespace geotrain

#include "search/memetic/mutation.hpp"

#include <algorithm>

#include "search/memetic/site_moves.hpp"

namespace geotrain {

namespace {

// The moves on a stage list (stages[0, count), count updated): a valid
// chromosome's stages have distinct GPUs, so a stage emptied by a move just
// goes, and what remains is again the decoding of the moved genes. Each move
// draws exactly what its gene form always drew, in the same order.
void erase_stage(Stage* stages, int& count, int q) {
  std::copy(stages + q + 1, stages + count, stages + q);
  --count;
}

bool shift_boundary_stages(Stage* stages, int& count, Rng& rng, bool both_ways) {
  if (count < 2) return false;
  // Boundary k (ascending) lies between stages k and k + 1.
  const int k = static_cast<int>(rng.below(static_cast<std::uint64_t>(count - 1)));
  if (both_ways && rng.bernoulli(0.5)) {  // the right stage's first layer moves left
    ++stages[k].layers;
    if (--stages[k + 1].layers == 0) erase_stage(stages, count, k + 1);
  } else {  // the left stage's last layer moves right
    ++stages[k + 1].layers;
    if (--stages[k].layers == 0) erase_stage(stages, count, k);
  }
  return true;
}

bool swap_stages_in(Stage* stages, int count, Rng& rng) {
  if (count < 2) return false;
  // An ordered pair of distinct stages, uniform; as an unordered pair also uniform.
  const int first = static_cast<int>(rng.below(static_cast<std::uint64_t>(count)));
  int second = static_cast<int>(rng.below(static_cast<std::uint64_t>(count - 1)));
  if (second >= first) ++second;
  std::swap(stages[first], stages[second]);  // each keeps its GPU and length; those between shift
  return true;
}

bool reassign_gpu_stages(Stage* stages, int count, Rng& rng, OperatorContext& context) {
  const int N = context.num_gpus();
  const int q = static_cast<int>(rng.below(static_cast<std::uint64_t>(count)));  // line 10 draws first
  // Unused GPUs in index order (line 11): flags first, then compacted in place.
  int* unused = context.scratch().gpus.data();
  std::fill_n(unused, N, 1);
  for (int s = 0; s < count; ++s) unused[stages[s].gpu] = 0;
  int unused_count = 0;
  for (int g = 0; g < N; ++g)
    if (unused[g]) unused[unused_count++] = g;
  if (unused_count == 0) return false;  // line 12: every GPU is active
  stages[q].gpu = unused[rng.below(static_cast<std::uint64_t>(unused_count))];
  return true;
}

bool split_stage_stages(Stage* stages, int& count, int stage, Rng& rng, OperatorContext& context) {
  const CostModel& model = context.model();
  const int N = context.num_gpus();
  if (stage < 0 || stage >= count) return false;
  const int layers = stages[stage].layers, gpu = stages[stage].gpu;
  if (layers < 2) return false;
  int* used = context.scratch().gpus.data();
  std::fill_n(used, N, 0);
  for (int s = 0; s < count; ++s) used[stages[s].gpu] = 1;
  // The few cheapest candidates, kept sorted (score, then index: a total order).
  struct Candidate {
    double score;
    int gpu;
  } best[kSplitCandidates];
  int kept = 0;
  for (int g = 0; g < N; ++g) {
    if (used[g]) continue;
    const double score = 0.5 * layers * model.layer_compute_s(g) + model.send_s(gpu, g) + model.send_s(g, gpu);
    if (kept == kSplitCandidates && !(score < best[kept - 1].score)) continue;
    int at = kept < kSplitCandidates ? kept++ : kept - 1;
    for (; at > 0 && score < best[at - 1].score; --at) best[at] = best[at - 1];
    best[at] = {score, g};
  }
  if (kept == 0) return false;
  const int added = best[rng.below(static_cast<std::uint64_t>(kept))].gpu;
  // Layers in proportion to speed: the faster GPU takes more.
  const double own_speed = 1.0 / model.layer_compute_s(gpu), added_speed = 1.0 / model.layer_compute_s(added);
  int second = static_cast<int>(layers * added_speed / (own_speed + added_speed) + 0.5);
  second = std::min(std::max(second, 1), layers - 1);
  std::copy_backward(stages + stage + 1, stages + count, stages + count + 1);
  stages[stage].layers -= second;
  stages[stage + 1] = Stage{added, second};
  ++count;
  return true;
}

bool merge_stage_stages(Stage* stages, int& count, Rng& rng) {
  if (count < 2) return false;
  const int q = static_cast<int>(rng.below(static_cast<std::uint64_t>(count)));
  const bool left = q == count - 1 || (q > 0 && rng.bernoulli(0.5));
  stages[left ? q - 1 : q + 1].layers += stages[q].layers;
  erase_stage(stages, count, q);
  return true;
}

// A gene-form move: the genes decoded into the context's stages_b, moved, written back.
template <typename Move>
bool on_genes(int* genes, OperatorContext& context, Move move) {
  const int L = context.num_layers();
  Stage* stages = context.scratch().stages_b.data();
  int count = 0;
  for (int l = 0; l < L; ++l) {
    if (l == 0 || genes[l] != genes[l - 1]) stages[count++] = Stage{genes[l], 0};
    ++stages[count - 1].layers;
  }
  if (!move(stages, count)) return false;
  for (int q = 0, l = 0; q < count; ++q) l = static_cast<int>(std::fill_n(genes + l, stages[q].layers, stages[q].gpu) - genes);
  return true;
}

}  // namespace

bool shift_boundary(int* genes, Rng& rng, OperatorContext& context, bool both_ways) {
  return on_genes(genes, context, [&](Stage* s, int& n) { return shift_boundary_stages(s, n, rng, both_ways); });
}

bool swap_stages(int* genes, Rng& rng, OperatorContext& context) {
  return on_genes(genes, context, [&](Stage* s, int& n) { return swap_stages_in(s, n, rng); });
}

bool reassign_gpu(int* genes, Rng& rng, OperatorContext& context) {
  return on_genes(genes, context, [&](Stage* s, int& n) { return reassign_gpu_stages(s, n, rng, context); });
}

bool split_stage(int* genes, int stage, Rng& rng, OperatorContext& context) {
  return on_genes(genes, context, [&](Stage* s, int& n) { return split_stage_stages(s, n, stage, rng, context); });
}

bool merge_stage(int* genes, Rng& rng, OperatorContext& context) {
  return on_genes(genes, context, [&](Stage* s, int& n) { return merge_stage_stages(s, n, rng); });
}

bool mutate(Chromosome& child, MutationKind kind, Rng& rng, OperatorContext& context, bool shift_both_ways) {
  // The mutant as a stage list: no decoding, costed directly (the figures
  // evaluate_genes gives, bit for bit), genes written only when it is kept.
  const std::vector<Stage>& stages = stages_of(child);
  Stage* mutant = context.scratch().stages_a.data();
  int count = static_cast<int>(stages.size());
  std::copy(stages.begin(), stages.end(), mutant);
  bool moved = false;
  switch (kind) {
    case MutationKind::boundary_shift: moved = shift_boundary_stages(mutant, count, rng, shift_both_ways); break;
    case MutationKind::stage_swap: moved = swap_stages_in(mutant, count, rng); break;
    case MutationKind::gpu_reassignment: moved = reassign_gpu_stages(mutant, count, rng, context); break;
    case MutationKind::stage_split: moved = split_stage_stages(mutant, count, child.cost.bottleneck, rng, context); break;
    case MutationKind::stage_merge: moved = merge_stage_stages(mutant, count, rng); break;
    case MutationKind::layer_balance: moved = balance_layers(mutant, count, context); break;
    case MutationKind::neighbour_merge: moved = merge_neighbours(mutant, count, rng, context); break;
    case MutationKind::pipeline_contract: moved = contract_stages(mutant, count, rng, context); break;
    case MutationKind::pipeline_grow: moved = grow_site(mutant, count, rng, context); break;
    case MutationKind::site_gather: moved = gather_site(mutant, count, rng, context); break;
    case MutationKind::site_drop: moved = drop_site(mutant, count, rng, context); break;
    case MutationKind::site_add: moved = add_site(mutant, count, rng, context); break;
    case MutationKind::site_move: moved = move_site(mutant, count, rng, context); break;
  }
  if (!moved) return false;
  const PlanCost cost = context.evaluate(mutant, count);
  if (!cost.feasible) return false;  // line 16: revert to the parent
  replace_stages(child, mutant, count);
  child.cost = cost;
  return true;
}

bool mutate(Chromosome& child, Rng& rng, OperatorContext& context, bool shift_both_ways, const ScaleMoves& moves) {
  // The kinds in play, in enum order: the paper's three on small pools; on
  // larger ones the split and merge, then the stage moves, then the site
  // moves when the pool has two sites or more (each group when switched on).
  MutationKind kinds[kMutationKinds];
  int count = 0;
  const bool large = context.num_gpus() > kPaperMovesMaxGpus;
  for (int k = 0; k < kMutationKinds; ++k) {
    const bool in_play = k < 3 || (large && (k < 5 || (k < kStageScaleKinds ? moves.stage_moves
                                                                           : moves.site_moves &&
                                                                                 context.model().num_sites() >= 2)));
    if (in_play) kinds[count++] = static_cast<MutationKind>(k);
  }
  return mutate(child, kinds[rng.below(static_cast<std::uint64_t>(count))], rng, context, shift_both_ways);
}

}  // namespace geotrain

#include "search/mutation.hpp"

#include <algorithm>

namespace geotrain {

namespace {

// Stage q occupies [starts[q], starts[q + 1]); returns the stage count.
int stage_starts(const int* genes, int num_layers, int* starts) {
  int count = 0;
  for (int l = 0; l < num_layers; ++l)
    if (l == 0 || genes[l] != genes[l - 1]) starts[count++] = l;
  starts[count] = num_layers;
  return count;
}

}  // namespace

bool shift_boundary(int* genes, Rng& rng, OperatorContext& context, bool both_ways) {
  int* boundaries = context.scratch().positions.data();
  const int count = stage_boundaries(genes, context.num_layers(), boundaries);
  if (count == 0) return false;
  const int b = boundaries[rng.below(static_cast<std::uint64_t>(count))];
  if (both_ways && rng.bernoulli(0.5)) genes[b] = genes[b - 1];
  else genes[b - 1] = genes[b];
  return true;
}

bool swap_stages(int* genes, Rng& rng, OperatorContext& context) {
  OperatorContext::Scratch& scratch = context.scratch();
  int* starts = scratch.positions.data();
  const int stages = stage_starts(genes, context.num_layers(), starts);
  if (stages < 2) return false;
  // An ordered pair of distinct stages, uniform; as an unordered pair also uniform.
  const int first = static_cast<int>(rng.below(static_cast<std::uint64_t>(stages)));
  int second = static_cast<int>(rng.below(static_cast<std::uint64_t>(stages - 1)));
  if (second >= first) ++second;
  const int s1 = std::min(first, second), s2 = std::max(first, second);

  const int start1 = starts[s1], end1 = starts[s1 + 1], start2 = starts[s2], end2 = starts[s2 + 1];
  const int gpu1 = genes[start1], gpu2 = genes[start2];
  int* middle = scratch.stage_gpu.data();
  std::copy(genes + end1, genes + start2, middle);
  int* out = std::fill_n(genes + start1, end2 - start2, gpu2);
  out = std::copy(middle, middle + (start2 - end1), out);
  std::fill_n(out, end1 - start1, gpu1);
  return true;
}

bool reassign_gpu(int* genes, Rng& rng, OperatorContext& context) {
  OperatorContext::Scratch& scratch = context.scratch();
  const int L = context.num_layers(), N = context.num_gpus();
  int* starts = scratch.positions.data();
  const int stages = stage_starts(genes, L, starts);
  const int q = static_cast<int>(rng.below(static_cast<std::uint64_t>(stages)));  // line 10 draws first

  // Unused GPUs in index order (line 11): flags first, then compacted in place.
  int* unused = scratch.gpus.data();
  std::fill_n(unused, N, 1);
  for (int s = 0; s < stages; ++s) unused[genes[starts[s]]] = 0;
  int count = 0;
  for (int g = 0; g < N; ++g)
    if (unused[g]) unused[count++] = g;
  if (count == 0) return false;  // line 12: every GPU is active
  const int gpu = unused[rng.below(static_cast<std::uint64_t>(count))];
  std::fill(genes + starts[q], genes + starts[q + 1], gpu);
  return true;
}

bool split_stage(int* genes, int stage, Rng& rng, OperatorContext& context) {
  OperatorContext::Scratch& scratch = context.scratch();
  const CostModel& model = context.model();
  const int L = context.num_layers(), N = context.num_gpus();
  int* starts = scratch.positions.data();
  const int stages = stage_starts(genes, L, starts);
  if (stage < 0 || stage >= stages) return false;
  const int start = starts[stage], end = starts[stage + 1], layers = end - start, gpu = genes[start];
  if (layers < 2) return false;
  int* used = scratch.gpus.data();
  std::fill_n(used, N, 0);
  for (int s = 0; s < stages; ++s) used[genes[starts[s]]] = 1;
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
  std::fill(genes + end - second, genes + end, added);
  return true;
}

bool merge_stage(int* genes, Rng& rng, OperatorContext& context) {
  int* starts = context.scratch().positions.data();
  const int L = context.num_layers();
  const int stages = stage_starts(genes, L, starts);
  if (stages < 2) return false;
  const int q = static_cast<int>(rng.below(static_cast<std::uint64_t>(stages)));
  const bool left = q == stages - 1 || (q > 0 && rng.bernoulli(0.5));
  const int into = left ? genes[starts[q] - 1] : genes[starts[q + 1]];
  std::fill(genes + starts[q], genes + starts[q + 1], into);
  return true;
}

bool mutate(Chromosome& child, MutationKind kind, Rng& rng, OperatorContext& context, bool shift_both_ways) {
  const int L = context.num_layers();
  int* mutant = context.scratch().genes_a.data();
  std::copy(child.genes.begin(), child.genes.end(), mutant);
  bool moved = false;
  switch (kind) {
    case MutationKind::boundary_shift: moved = shift_boundary(mutant, rng, context, shift_both_ways); break;
    case MutationKind::stage_swap: moved = swap_stages(mutant, rng, context); break;
    case MutationKind::gpu_reassignment: moved = reassign_gpu(mutant, rng, context); break;
    case MutationKind::stage_split: moved = split_stage(mutant, child.cost.bottleneck, rng, context); break;
    case MutationKind::stage_merge: moved = merge_stage(mutant, rng, context); break;
  }
  if (!moved) return false;
  const PlanCost cost = context.evaluate(mutant);
  if (!cost.feasible) return false;  // line 16: revert to the parent
  std::copy(mutant, mutant + L, child.genes.begin());
  child.cost = cost;
  return true;
}

bool mutate(Chromosome& child, Rng& rng, OperatorContext& context, bool shift_both_ways) {
  const int kinds = context.num_gpus() > kPaperMovesMaxGpus ? kMutationKinds : 3;
  return mutate(child, static_cast<MutationKind>(rng.below(static_cast<std::uint64_t>(kinds))), rng, context,
                shift_both_ways);
}

}  // namespace geotrain

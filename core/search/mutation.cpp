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

bool mutate(Chromosome& child, MutationKind kind, Rng& rng, OperatorContext& context, bool shift_both_ways) {
  const int L = context.num_layers();
  int* mutant = context.scratch().genes_a.data();
  std::copy(child.genes.begin(), child.genes.end(), mutant);
  bool moved = false;
  switch (kind) {
    case MutationKind::boundary_shift: moved = shift_boundary(mutant, rng, context, shift_both_ways); break;
    case MutationKind::stage_swap: moved = swap_stages(mutant, rng, context); break;
    case MutationKind::gpu_reassignment: moved = reassign_gpu(mutant, rng, context); break;
  }
  if (!moved) return false;
  const PlanCost cost = context.evaluate(mutant);
  if (!cost.feasible) return false;  // line 16: revert to the parent
  std::copy(mutant, mutant + L, child.genes.begin());
  child.cost = cost;
  return true;
}

bool mutate(Chromosome& child, Rng& rng, OperatorContext& context, bool shift_both_ways) {
  return mutate(child, static_cast<MutationKind>(rng.below(3)), rng, context, shift_both_ways);
}

}  // namespace geotrain

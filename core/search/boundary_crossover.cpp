#include "search/boundary_crossover.hpp"

#include <algorithm>

namespace geotrain {

namespace {

struct BestCut {
  int cut = -1;  // none yet
  PlanCost cost;
};

// B1 u B2 in ascending order: a position is a cut when either parent changes GPU there.
int boundary_union(const int* a, const int* b, int num_layers, int* cuts) {
  int count = 0;
  for (int l = 1; l < num_layers; ++l)
    if (a[l] != a[l - 1] || b[l] != b[l - 1]) cuts[count++] = l;
  return count;
}

int every_cut(int num_layers, int* cuts) {
  for (int l = 1; l < num_layers; ++l) cuts[l - 1] = l;
  return num_layers > 1 ? num_layers - 1 : 0;
}

// Alg. 2, lines 11-14: a valid child strictly fitter than the best so far takes its place.
void consider(const int* child, int cut, OperatorContext& context, BestCut& best) {
  if (!context.contiguous(child)) return;
  const PlanCost cost = context.evaluate(child);
  if (cost.feasible && (best.cut < 0 || cost.objective < best.cost.objective)) best = BestCut{cut, cost};
}

void write_child(const int* prefix, const int* suffix, const BestCut& best, int num_layers, Chromosome& child) {
  child.genes.assign(prefix, prefix + best.cut);
  child.genes.insert(child.genes.end(), suffix + best.cut, suffix + num_layers);
  child.cost = best.cost;
}

}  // namespace

int boundary_crossover(const Chromosome& p1, const Chromosome& p2, double fallback_rate, Rng& rng,
                       OperatorContext& context, Chromosome* children) {
  const int L = context.num_layers();
  const int* a = p1.genes.data();
  const int* b = p2.genes.data();
  OperatorContext::Scratch& scratch = context.scratch();
  int* cuts = scratch.positions.data();
  const int cut_count = rng.bernoulli(fallback_rate) ? every_cut(L, cuts) : boundary_union(a, b, L, cuts);

  // The two candidate children are kept up to date as the cut moves right:
  // going from cut `done` to cut `c` moves positions [done, c) into the prefix.
  int* c1 = scratch.genes_a.data();  // p1 prefix, p2 suffix
  int* c2 = scratch.genes_b.data();  // p2 prefix, p1 suffix
  std::copy(b, b + L, c1);
  std::copy(a, a + L, c2);
  BestCut best1, best2;
  int done = 0;
  for (int k = 0; k < cut_count; ++k) {
    const int cut = cuts[k];
    std::copy(a + done, a + cut, c1 + done);
    std::copy(b + done, b + cut, c2 + done);
    done = cut;
    consider(c1, cut, context, best1);
    consider(c2, cut, context, best2);
  }

  int written = 0;
  if (best1.cut >= 0) write_child(a, b, best1, L, children[written++]);
  if (best2.cut >= 0) write_child(b, a, best2, L, children[written++]);
  return written;
}

}  // namespace geotrain

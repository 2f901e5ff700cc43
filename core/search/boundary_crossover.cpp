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

int decode(const int* genes, int num_layers, Stage* out) {
  int count = 0;
  for (int l = 0; l < num_layers; ++l) {
    if (l == 0 || genes[l] != genes[l - 1]) out[count++] = Stage{genes[l], 0};
    ++out[count - 1].layers;
  }
  return count;
}

// Whether prefix[:cut] + suffix[cut:] puts a GPU in two runs, kept up to date
// as the cut moves right one layer at a time. Both parts are contiguous, so
// the child is exactly when no GPU is in both, except the one GPU that ends
// the prefix and starts the suffix (its two runs join). conflicts counts the
// GPUs in both parts. O(1) per layer instead of a scan of the child per cut.
class JunctionCheck {
 public:
  JunctionCheck(const int* prefix, const int* suffix, int num_layers, int* in_prefix, int* in_suffix)
      : prefix_(prefix), suffix_(suffix), in_prefix_(in_prefix), in_suffix_(in_suffix) {
    // Both arrays are read for both parents' GPUs: reset exactly those.
    for (int l = 0; l < num_layers; ++l) {
      in_prefix_[prefix[l]] = in_prefix_[suffix[l]] = 0;
      in_suffix_[prefix[l]] = in_suffix_[suffix[l]] = 0;
    }
    for (int l = 0; l < num_layers; ++l) ++in_suffix_[suffix[l]];
  }
  // Layer `l` (= the old cut) joins the prefix and leaves the suffix.
  void advance(int l) {
    const int g = prefix_[l];
    if (!in_prefix_[g]++ && in_suffix_[g] > 0) ++conflicts_;
    const int h = suffix_[l];
    if (--in_suffix_[h] == 0 && in_prefix_[h] > 0) --conflicts_;
  }
  bool contiguous(int cut) const {
    return conflicts_ == 0 || (conflicts_ == 1 && prefix_[cut - 1] == suffix_[cut]);
  }

 private:
  const int* prefix_;
  const int* suffix_;
  int* in_prefix_;  // layers of g in prefix[:cut] (only zero or not matters)
  int* in_suffix_;  // layers of g in suffix[cut:]
  int conflicts_ = 0;
};

// The stages of prefix[:cut] + suffix[cut:] from both parents' stage lists:
// O(Q), no genes written.
int child_stages(const Stage* prefix, int prefix_count, const Stage* suffix, int suffix_count, int cut, Stage* out) {
  int count = 0, end = 0;
  for (int q = 0; q < prefix_count && end < cut; ++q) {
    const int take = std::min(prefix[q].layers, cut - end);
    out[count++] = Stage{prefix[q].gpu, take};
    end += take;
  }
  int start = 0;
  for (int q = 0; q < suffix_count; ++q) {
    const int stage_end = start + suffix[q].layers;
    if (stage_end > cut) {
      const int take = stage_end - std::max(start, cut);
      if (start <= cut && out[count - 1].gpu == suffix[q].gpu) out[count - 1].layers += take;  // the junction joins
      else out[count++] = Stage{suffix[q].gpu, take};
    }
    start = stage_end;
  }
  return count;
}

// Alg. 2, lines 11-14: a valid child strictly fitter than the best so far takes its place.
void consider(const Stage* stages, int count, int cut, OperatorContext& context, BestCut& best) {
  const PlanCost cost = context.evaluate(stages, count);
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

  // Candidates are costed from stage lists built out of the parents' (the
  // same figures, bit for bit, as their genes would give); only the two
  // winners get genes.
  Stage* stages_a = scratch.stages_a.data();
  Stage* stages_b = scratch.stages_b.data();
  Stage* child = scratch.stages_child.data();
  const int count_a = decode(a, L, stages_a), count_b = decode(b, L, stages_b);
  JunctionCheck check1(a, b, L, scratch.in_prefix_a.data(), scratch.suffix_b.data());  // c1 = p1[:cut] + p2[cut:]
  JunctionCheck check2(b, a, L, scratch.in_prefix_b.data(), scratch.suffix_a.data());  // c2 = p2[:cut] + p1[cut:]
  BestCut best1, best2;
  int done = 0;
  for (int k = 0; k < cut_count; ++k) {
    const int cut = cuts[k];
    for (; done < cut; ++done) check1.advance(done), check2.advance(done);
    if (check1.contiguous(cut)) consider(child, child_stages(stages_a, count_a, stages_b, count_b, cut, child), cut, context, best1);
    if (check2.contiguous(cut)) consider(child, child_stages(stages_b, count_b, stages_a, count_a, cut, child), cut, context, best2);
  }

  int written = 0;
  if (best1.cut >= 0) write_child(a, b, best1, L, children[written++]);
  if (best2.cut >= 0) write_child(b, a, best2, L, children[written++]);
  return written;
}

}  // namespace geotrain

#include "search/boundary_crossover.hpp"

#include <algorithm>

namespace geotrain {

namespace {

struct BestCut {
  int cut = -1;  // none yet
  PlanCost cost;
  int last = 0, first = 0;  // the junction check's stages at the cut (see JunctionCheck)
};

int every_cut(int num_layers, int* cuts) {
  for (int l = 1; l < num_layers; ++l) cuts[l - 1] = l;
  return num_layers > 1 ? num_layers - 1 : 0;
}

// B1 u B2 in ascending order: a position is a cut when either parent
// changes GPU there. A merge of both parents' stage starts, O(Q).
int boundary_union(const StageView& a, const StageView& b, int* cuts) {
  int count = 0, i = 1, j = 1;
  while (i < a.count || j < b.count) {
    const int next_a = i < a.count ? a.starts[i] : a.starts[a.count], next_b = j < b.count ? b.starts[j] : b.starts[b.count];
    const int cut = std::min(next_a, next_b);
    cuts[count++] = cut;
    i += next_a == cut, j += next_b == cut;
  }
  return count;
}

// Per GPU, its stage index in each parent (-1: not in it). Only the parents'
// GPUs are read, so only theirs are reset: O(Q), not O(N).
void index_stages(const StageView& a, const StageView& b, int* stage_in_a, int* stage_in_b) {
  for (int q = 0; q < b.count; ++q) stage_in_a[b.stages[q].gpu] = -1;
  for (int q = 0; q < a.count; ++q) stage_in_a[a.stages[q].gpu] = q, stage_in_b[a.stages[q].gpu] = -1;
  for (int q = 0; q < b.count; ++q) stage_in_b[b.stages[q].gpu] = q;
}

// The child prefix[:cut] + suffix[cut:] as the cut moves right, one stage
// event at a time: O(Q) per crossover instead of O(L). Both parts are
// contiguous, so the child is exactly when no GPU is in both, except the one
// GPU that ends the prefix and starts the suffix (its two runs join).
// conflicts_ counts the GPUs in both parts.
class JunctionCheck {
 public:
  JunctionCheck(const StageView& prefix, const StageView& suffix, const int* stage_in_prefix,
                const int* stage_in_suffix)
      : prefix_(prefix), suffix_(suffix), in_prefix_(stage_in_prefix), in_suffix_(stage_in_suffix) {}
  // Moves the cut to `cut`: the prefix stage that now starts before the cut
  // joins it, the suffix stage that now ends at or before it leaves. The
  // cuts are the union of both parents' boundaries, or every cut, ascending:
  // between two of them lies no other boundary, so at most one stage of each
  // parent moves per cut, and the moves are written as arithmetic on flags
  // (whether a stage moves differs from cut to cut: branches would be
  // mispredicted).
  void advance(int cut) {
    const int joins = prefix_.starts[last_ + 1] < cut;  // never past the end: starts[count] = L > cut
    const int g = prefix_.stages[std::min(last_ + 1, prefix_.count - 1)].gpu;
    conflicts_ += joins & (in_suffix_[g] >= first_);  // -1: not in the suffix parent
    last_ += joins;
    const int leaves = suffix_.starts[first_ + 1] <= cut;
    const int q = in_prefix_[suffix_.stages[first_].gpu];
    conflicts_ -= leaves & (q >= 0) & (q <= last_);
    first_ += leaves;
  }
  int last() const { return last_; }    // the prefix parent's stage holding layer cut - 1
  int first() const { return first_; }  // the suffix parent's stage holding layer cut
  bool contiguous() const {
    return (conflicts_ == 0) | ((conflicts_ == 1) & (prefix_.stages[last_].gpu == suffix_.stages[first_].gpu));
  }
  // The child at `cut`, costed in three pieces: the prefix parent's stages
  // before the junction, the junction's one or two stages, the suffix
  // parent's stages after it. Nothing is copied but the junction.
  // With both parents' stage sums, from those (evaluate_joined).
  PlanCost cost(int cut, OperatorContext& context) const {
    Stage junction[2];
    const int junction_count = junction_stages(prefix_, last_, suffix_, first_, cut, junction);
    if (prefix_.sums && suffix_.sums)
      return context.evaluate_joined(prefix_.stages, prefix_.sums, last_, junction, junction_count, suffix_.stages,
                                     suffix_.sums, first_ + 1, suffix_.count);
    return context.evaluate(prefix_.stages, last_, junction, junction_count, suffix_.stages + first_ + 1,
                            suffix_.count - first_ - 1);
  }

  // The one stage, or two, that the cut makes of prefix stage `last` (which
  // holds layer cut - 1) and suffix stage `first` (which holds layer cut).
  // Without branches (whether the runs join differs from cut to cut): out[1]
  // is written either way and is not part of the result when they join.
  static int junction_stages(const StageView& prefix, int last, const StageView& suffix, int first, int cut,
                             Stage* out) {
    const int tail_layers = suffix.starts[first + 1] - cut;
    const int joined = prefix.stages[last].gpu == suffix.stages[first].gpu;
    out[0] = Stage{prefix.stages[last].gpu, cut - prefix.starts[last] + joined * tail_layers};
    out[1] = Stage{suffix.stages[first].gpu, tail_layers};
    return 2 - joined;
  }

  // The stages of prefix[:cut] + suffix[cut:], where prefix stage `last`
  // holds layer cut - 1 and suffix stage `first` layer cut: O(Q), straight
  // copies of both parents' runs.
  static int assemble(const StageView& prefix, int last, const StageView& suffix, int first, int cut, Stage* out) {
    Stage* end = std::copy(prefix.stages, prefix.stages + last, out);
    end += junction_stages(prefix, last, suffix, first, cut, end);
    end = std::copy(suffix.stages + first + 1, suffix.stages + suffix.count, end);
    return static_cast<int>(end - out);
  }

 private:
  const StageView prefix_;  // copies: the loop reads them at every cut
  const StageView suffix_;
  const int* in_prefix_;  // stage of g in the prefix parent, -1 when none
  const int* in_suffix_;  // stage of g in the suffix parent, -1 when none
  int last_ = -1;         // the prefix parent's stage holding layer cut - 1
  int first_ = 0;         // the suffix parent's stage holding layer cut
  int conflicts_ = 0;
};

// Alg. 2, lines 11-14: a valid child strictly fitter than the best so far takes its place.
inline void consider(const JunctionCheck& check, int cut, OperatorContext& context, BestCut& best) {
  const PlanCost cost = check.cost(cut, context);
  if (cost.feasible && (best.cut < 0 || cost.objective < best.cost.objective))
    best = BestCut{cut, cost, check.last(), check.first()};
}

// The winner of a side: stages assembled from the parents' straight into
// the child's buffer; its genes are left stale (genes_of writes them).
void write_child(const StageView& prefix_stages, const StageView& suffix_stages, const BestCut& best,
                 Chromosome& child) {
  child.genes_stale = true;
  child.sums.clear();
  child.stages.resize(static_cast<std::size_t>(best.last + 2 + suffix_stages.count - best.first - 1));  // at most
  const int count =
      JunctionCheck::assemble(prefix_stages, best.last, suffix_stages, best.first, best.cut, child.stages.data());
  child.stages.resize(static_cast<std::size_t>(count));
  child.cost = best.cost;
}

}  // namespace

void decode_stages(const int* genes, int num_layers, StageView& out) {
  int count = 0;
  for (int l = 0; l < num_layers; ++l) {
    if (l == 0 || genes[l] != genes[l - 1]) out.starts[count] = l, out.stages[count++] = Stage{genes[l], 0};
    ++out.stages[count - 1].layers;
  }
  out.starts[count] = num_layers;
  out.count = count;
}

int boundary_crossover(const Chromosome& p1, const Chromosome& p2, double fallback_rate, Rng& rng,
                       OperatorContext& context, Chromosome* children) {
  OperatorContext::Scratch& scratch = context.scratch();
  StageView stages_a{scratch.stages_a.data(), scratch.starts_a.data()};
  StageView stages_b{scratch.stages_b.data(), scratch.starts_b.data()};
  decode_stages(p1.genes.data(), context.num_layers(), stages_a);
  decode_stages(p2.genes.data(), context.num_layers(), stages_b);
  return boundary_crossover(stages_a, stages_b, fallback_rate, rng, context, children);
}

int boundary_crossover(const StageView& stages_a, const StageView& stages_b, double fallback_rate, Rng& rng, OperatorContext& context,
                       Chromosome* children) {
  const int L = context.num_layers();
  OperatorContext::Scratch& scratch = context.scratch();

  // Candidates are costed from the parents' stage lists in place (the same
  // figures, bit for bit, as their genes would give); only the two winners
  // get genes and stages.
  int* cuts = scratch.positions.data();
  const int cut_count = rng.bernoulli(fallback_rate) ? every_cut(L, cuts) : boundary_union(stages_a, stages_b, cuts);
  index_stages(stages_a, stages_b, scratch.stage_in_a.data(), scratch.stage_in_b.data());
  JunctionCheck check1(stages_a, stages_b, scratch.stage_in_a.data(), scratch.stage_in_b.data());  // c1 = p1[:cut] + p2[cut:]
  JunctionCheck check2(stages_b, stages_a, scratch.stage_in_b.data(), scratch.stage_in_a.data());  // c2 = p2[:cut] + p1[cut:]
  BestCut best1, best2;
  for (int k = 0; k < cut_count; ++k) {
    const int cut = cuts[k];
    check1.advance(cut), check2.advance(cut);
    if (check1.contiguous()) consider(check1, cut, context, best1);
    if (check2.contiguous()) consider(check2, cut, context, best2);
  }

  int written = 0;
  if (best1.cut >= 0) write_child(stages_a, stages_b, best1, children[written++]);
  if (best2.cut >= 0) write_child(stages_b, stages_a, best2, children[written++]);
  return written;
}

}  // namespace geotrain

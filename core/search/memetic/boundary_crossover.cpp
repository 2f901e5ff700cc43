#include "search/memetic/boundary_crossover.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace geotrain {

namespace {

// Cut positions 1..L-1 as bits of 64-bit words: bit c % 64 of word c / 64
// (cut_words of them, as index_stages writes a parent's).
using Word = std::uint64_t;

// Bits lo..hi of one word, 0 <= lo <= hi < 64.
inline Word bits_between(int lo, int hi) { return (~Word{0} << lo) & (~Word{0} >> (kWordBits - 1 - hi)); }

// Sets the bits of cuts lo..hi (none when lo > hi), 0 <= lo, hi < L.
inline void set_range(Word* words, int lo, int hi) {
  if (lo > hi) return;
  const unsigned first = static_cast<unsigned>(lo) / kWordBits, last = static_cast<unsigned>(hi) / kWordBits;
  if (first == last) {  // always when L <= 64
    words[first] |= bits_between(lo % kWordBits, hi % kWordBits);
    return;
  }
  words[first] |= ~Word{0} << (lo % kWordBits);
  for (unsigned w = first + 1; w < last; ++w) words[w] = ~Word{0};
  words[last] |= ~Word{0} >> (kWordBits - 1 - hi % kWordBits);
}

// The candidate cuts: B1 u B2 (a position where either parent changes GPU),
// or with the fallback every cut 1..L-1.
void candidate_cuts(const StageView& a, const StageView& b, bool every, int num_layers, Word* cuts) {
  if (every) {
    std::fill_n(cuts, cut_words(num_layers), Word{0});
    return set_range(cuts, 1, num_layers - 1);
  }
  for (int w = 0; w < cut_words(num_layers); ++w) cuts[w] = a.cut_bits[w] | b.cut_bits[w];
}

// The cuts at which prefix[:cut] + suffix[cut:] reuses a GPU in two runs.
// Both parts are contiguous, so only a GPU of both parents can: with its
// runs [sp, ep) in the prefix parent and [ss, es) in the suffix parent, both
// parts hold it when sp < cut < es, and its runs join into one exactly when
// the cut ends the first (cut <= ep) and starts within the second (cut >= ss).
// So its bad cuts are sp+1..es-1 without ss..ep: at most two ranges.
inline void add_reused_cuts(int sp, int ep, int ss, int es, Word* bad) {
  set_range(bad, sp + 1, std::min(es - 1, ss - 1));
  set_range(bad, std::max(sp + 1, ep + 1), es - 1);
}

// Those cuts for both children, c1 = a[:cut] + b[cut:] into bad_1 and
// c2 = b[:cut] + a[cut:] into bad_2: a pass over the GPUs both parents use
// (their GPU bits' intersection), each GPU's stage looked up in both.
void reused_gpu_cuts(const StageView& a, const StageView& b, int num_layers, int num_gpus, Word* bad_1, Word* bad_2) {
  std::fill_n(bad_1, cut_words(num_layers), Word{0});
  std::fill_n(bad_2, cut_words(num_layers), Word{0});
  for (int w = 0; w < gpu_words(num_gpus); ++w) {
    for (Word shared = a.gpu_bits[w] & b.gpu_bits[w]; shared != 0; shared &= shared - 1) {
      const int gpu = w * kWordBits + __builtin_ctzll(shared);
      const int q = a.stage_of_gpu[gpu], r = b.stage_of_gpu[gpu];
      const int sa = a.starts[q], ea = a.starts[q + 1], sb = b.starts[r], eb = b.starts[r + 1];
      add_reused_cuts(sa, ea, sb, eb, bad_1);
      add_reused_cuts(sb, eb, sa, ea, bad_2);
    }
  }
}

// A view with its index_stages: its own, or written into the scratch given.
StageView indexed(StageView view, int num_layers, int num_gpus, std::vector<Word>& cut_bits,
                  std::vector<Word>& gpu_bits, std::vector<int>& stage_of_gpu) {
  if (view.cut_bits != nullptr) return view;
  index_stages(view.stages, view.starts, view.count, num_layers, num_gpus, cut_bits.data(), gpu_bits.data(),
               stage_of_gpu.data());
  view.cut_bits = cut_bits.data(), view.gpu_bits = gpu_bits.data(), view.stage_of_gpu = stage_of_gpu.data();
  return view;
}

// The one stage, or two, that the cut makes of prefix stage `last` (which
// holds layer cut - 1) and suffix stage `first` (which holds layer cut).
// Without branches (whether the runs join differs from cut to cut): out[1]
// is written either way and is not part of the result when they join.
int junction_stages(const StageView& prefix, int last, const StageView& suffix, int first, int cut, Stage* out) {
  const int tail_layers = suffix.starts[first + 1] - cut;
  const int joined = prefix.stages[last].gpu == suffix.stages[first].gpu;
  out[0] = Stage{prefix.stages[last].gpu, cut - prefix.starts[last] + joined * tail_layers};
  out[1] = Stage{suffix.stages[first].gpu, tail_layers};
  return 2 - joined;
}

struct BestCut {
  int cut = -1;  // none yet
  PlanCost cost;
  int last = 0, first = 0;  // the prefix parent's stage holding layer cut - 1, the suffix parent's holding cut
};

// Alg. 2, lines 11-14, for one side: every valid child prefix[:cut] +
// suffix[cut:] in ascending cut order; one strictly fitter than the best so
// far takes its place. A candidate is costed from the parents' stage lists
// and stage sums in place: the figures its genes would give, bit for bit.
BestCut best_cut(const StageView& prefix, const StageView& suffix, const Word* cuts, const Word* bad,
                 int num_layers, OperatorContext& context) {
  BestCut best;
  int last = 0, first = 0;
  for (int w = 0; w < cut_words(num_layers); ++w) {
    for (Word bits = cuts[w] & ~bad[w]; bits != 0; bits &= bits - 1) {
      const int cut = w * kWordBits + __builtin_ctzll(bits);
      while (prefix.starts[last + 1] <= cut - 1) ++last;  // the cuts ascend: each stage is passed once
      while (suffix.starts[first + 1] <= cut) ++first;
      Stage junction[2];
      const int junction_count = junction_stages(prefix, last, suffix, first, cut, junction);
      const PlanCost cost = context.evaluate_joined(prefix.stages, prefix.sums, last, junction, junction_count,
                                                    suffix.stages, suffix.sums, first + 1, suffix.count);
      if (cost.feasible && (best.cut < 0 || cost.objective < best.cost.objective)) best = BestCut{cut, cost, last, first};
    }
  }
  return best;
}

// The winner of a side: its stages, straight copies of both parents' runs
// around the junction; its genes are left stale (genes_of writes them).
void write_child(const StageView& prefix, const StageView& suffix, const BestCut& best, Chromosome& child) {
  child.genes_stale = true;
  forget_parent_view(child);
  Stage junction[2];
  const int junction_count = junction_stages(prefix, best.last, suffix, best.first, best.cut, junction);
  child.stages.resize(static_cast<std::size_t>(best.last + junction_count + suffix.count - best.first - 1));
  // Element loops: the runs are a few stages long, shorter than a memmove call costs.
  Stage* out = child.stages.data();
  for (int q = 0; q < best.last; ++q) *out++ = prefix.stages[q];
  for (int k = 0; k < junction_count; ++k) *out++ = junction[k];
  for (int q = best.first + 1; q < suffix.count; ++q) *out++ = suffix.stages[q];
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
  StageView stages_a{scratch.stages_a.data(), scratch.starts_a.data(), 0, scratch.sums_a.data()};
  StageView stages_b{scratch.stages_b.data(), scratch.starts_b.data(), 0, scratch.sums_b.data()};
  decode_stages(p1.genes.data(), context.num_layers(), stages_a);
  decode_stages(p2.genes.data(), context.num_layers(), stages_b);
  stage_sums(context.model(), stages_a.stages, stages_a.count, scratch.sums_a.data());
  stage_sums(context.model(), stages_b.stages, stages_b.count, scratch.sums_b.data());
  return boundary_crossover(stages_a, stages_b, fallback_rate, rng, context, children);
}

int boundary_crossover(const StageView& view_a, const StageView& view_b, double fallback_rate, Rng& rng,
                       OperatorContext& context, Chromosome* children) {
  const int L = context.num_layers(), N = context.num_gpus();
  OperatorContext::Scratch& scratch = context.scratch();
  const StageView stages_a = indexed(view_a, L, N, scratch.cut_bits_a, scratch.gpu_bits_a, scratch.stage_of_gpu_a);
  const StageView stages_b = indexed(view_b, L, N, scratch.cut_bits_b, scratch.gpu_bits_b, scratch.stage_of_gpu_b);
  Word* cuts = scratch.cut_words.data();
  Word* bad_1 = scratch.bad_cut_words_1.data();
  Word* bad_2 = scratch.bad_cut_words_2.data();
  candidate_cuts(stages_a, stages_b, rng.bernoulli(fallback_rate), L, cuts);
  reused_gpu_cuts(stages_a, stages_b, L, N, bad_1, bad_2);
  const BestCut best1 = best_cut(stages_a, stages_b, cuts, bad_1, L, context);  // c1 = p1[:cut] + p2[cut:]
  const BestCut best2 = best_cut(stages_b, stages_a, cuts, bad_2, L, context);  // c2 = p2[:cut] + p1[cut:]

  int written = 0;
  if (best1.cut >= 0) write_child(stages_a, stages_b, best1, children[written++]);
  if (best2.cut >= 0) write_child(stages_b, stages_a, best2, children[written++]);
  return written;
}

}  // namespace geotrain

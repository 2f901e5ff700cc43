#pragma once
// The memetic algorithm's encoding (paper, Sect. 5.1): one GPU index per
// layer; a stage is a run of equal indices. A chromosome is valid when each
// GPU's layers are contiguous and every stage fits its GPU's memory (Eq. 19).
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "model/cost_model.hpp"
#include "model/plan.hpp"
#include "model/stage_sums.hpp"

namespace geotrain {

struct Chromosome {
  std::vector<int> genes;  // genes[l] = GPU index of layer l
  PlanCost cost;           // CostModel::evaluate_genes(genes)
  // The genes' stages (decode_genes), kept up to date by the operators so
  // that mutation, local search and crossover need not decode; empty for a
  // chromosome built from genes alone (decoded on first use).
  std::vector<Stage> stages;
  // The genes lag the stages (write_genes brings them up to date): a
  // crossover child's genes are written only if it survives to be compared
  // by its genes; most children of a converged population do not.
  bool genes_stale = false;
  // stage_sums of the stages and each stage's first layer (count + 1
  // entries, the last L), filled when the chromosome first acts as a
  // crossover parent (a member of a converged population does so in many
  // generations); cleared whenever the stages change (forget_parent_view).
  std::vector<StageSums> sums{};
  std::vector<int> starts{};
  // Filled with them (index_stages): what crossover's valid cuts come from.
  std::vector<std::uint64_t> cut_bits{}, gpu_bits{};
  std::vector<int> stage_of_gpu{};
};

// Member by member: std::swap's generic move-construct-and-assign costs
// three moves of each vector, and the replacement swaps chromosomes a lot.
inline void swap(Chromosome& a, Chromosome& b) noexcept {
  a.genes.swap(b.genes);
  std::swap(a.cost, b.cost);
  a.stages.swap(b.stages);
  std::swap(a.genes_stale, b.genes_stale);
  a.sums.swap(b.sums);
  a.starts.swap(b.starts);
  a.cut_bits.swap(b.cut_bits);
  a.gpu_bits.swap(b.gpu_bits);
  a.stage_of_gpu.swap(b.stage_of_gpu);
}

inline void forget_parent_view(Chromosome& c) {
  c.sums.clear();
  c.starts.clear();
}

// The search's total order: lower objective first, equal objectives broken by
// the genes, lexicographically. Total, so that every sort, tournament and
// replacement is the same on every platform. Inline: sorts call it a lot.
inline bool fitter(double objective_a, const int* genes_a, double objective_b, const int* genes_b, int num_layers) {
  if (objective_a != objective_b) return objective_a < objective_b;
  return std::lexicographical_compare(genes_a, genes_a + num_layers, genes_b, genes_b + num_layers);
}
inline bool fitter(const Chromosome& a, const Chromosome& b) {
  return fitter(a.cost.objective, a.genes.data(), b.cost.objective, b.genes.data(), static_cast<int>(a.genes.size()));
}

// Stage boundaries: positions b in 1..L-1 with genes[b] != genes[b-1],
// ascending, written to `out`; returns how many.
int stage_boundaries(const int* genes, int num_layers, int* out);
int stage_count(const int* genes, int num_layers);

// Decoding and encoding in one linear scan each.
Plan decode_genes(const int* genes, int num_layers);
inline Plan decode_genes(const std::vector<int>& genes) {
  return decode_genes(genes.data(), static_cast<int>(genes.size()));
}
std::vector<int> encode_plan(const Plan& plan);
// c.stages, decoded from c.genes first when empty.
const std::vector<Stage>& stages_of(Chromosome& c);
// A parent's stages as crossover's cut masks read them: the stage starts
// 1..count-1 as bits of cut_bits (bit c % 64 of word c / 64, L / 64 + 1
// words), the stages' GPUs as bits of gpu_bits (N / 64 + 1 words), and each
// of those GPUs' stage in stage_of_gpu (N long; no other entry is written,
// and only those are read: the GPUs both parents use, found by their bits).
void index_stages(const Stage* stages, const int* starts, int count, int num_layers, int num_gpus,
                  std::uint64_t* cut_bits, std::uint64_t* gpu_bits, int* stage_of_gpu);
constexpr int kWordBits = 64;
inline int cut_words(int num_layers) { return num_layers / kWordBits + 1; }
inline int gpu_words(int num_gpus) { return num_gpus / kWordBits + 1; }
// c.sums, filled first when empty (and c.starts and c's index_stages with them).
const std::vector<StageSums>& sums_of(Chromosome& c, const CostModel& model);
// c.genes, written from c.stages first when stale.
void write_genes(Chromosome& c);
inline const std::vector<int>& genes_of(Chromosome& c) {
  if (c.genes_stale) write_genes(c);
  return c.genes;
}
// Sets c's stages to stages[0, count) and its genes to theirs (as many
// genes as the stages have layers; the buffers are reused).
void assign_stages(Chromosome& c, const Stage* stages, int count);
// The same for a chromosome whose stages are up to date and that keeps its
// length: only the genes between the first and the last stage that differ
// are rewritten (a mutation or a rebalancing changes a few stages), and
// none while they are stale.
void replace_stages(Chromosome& c, const Stage* stages, int count);

// Whether every GPU's layers form one run. Reusable: it keeps one stamp per
// GPU, so a check costs one pass over the genes and allocates nothing.
class ContiguityCheck {
 public:
  explicit ContiguityCheck(int num_gpus) : stamp_(static_cast<std::size_t>(num_gpus), 0) {}
  // Inline: crossover checks every candidate child.
  bool operator()(const int* genes, int num_layers) {
    if (++epoch_ == 0) restart();  // wrapped: old stamps could collide with the new epoch
    for (int l = 0; l < num_layers; ++l) {
      if (l > 0 && genes[l] == genes[l - 1]) continue;
      std::uint32_t& seen = stamp_[static_cast<std::size_t>(genes[l])];
      if (seen == epoch_) return false;  // a second run of the same GPU
      seen = epoch_;
    }
    return true;
  }

 private:
  void restart();
  std::vector<std::uint32_t> stamp_;  // stamp_[g] == epoch_: g already had a run in this check
  std::uint32_t epoch_ = 0;
};

// For tests and callers outside the hot loop: every index in 0..num_gpus-1
// and each GPU's layers contiguous.
bool is_contiguous(const std::vector<int>& genes, int num_gpus);
// The model's length, contiguous and feasible in memory.
bool is_valid(const CostModel& model, const std::vector<int>& genes);

// What the operators share: the cost model, the count of its evaluations and
// scratch buffers sized once, so that no operator allocates per evaluation.
class OperatorContext {
 public:
  explicit OperatorContext(const CostModel& model);

  const CostModel& model() const { return model_; }
  int num_layers() const { return model_.num_layers(); }
  int num_gpus() const { return model_.num_gpus(); }

  // Every cost-model call of the search goes through here and is counted.
  PlanCost evaluate(const int* genes) {
    ++evaluations_;
    return model_.evaluate_genes(genes);
  }
  // The same for a plan already known as stages (no decoding): crossover
  // builds its candidates' stage lists from the parents' in O(Q).
  PlanCost evaluate(const Stage* stages, int count) {
    ++evaluations_;
    return model_.evaluate(stages, count);
  }
  // The same for crossover's candidates from their parents' stage sums
  // (evaluate_joined: the same figures).
  PlanCost evaluate_joined(const Stage* prefix, const StageSums* prefix_sums, int head, const Stage* junction,
                           int junction_count, const Stage* suffix, const StageSums* suffix_sums, int from,
                           int suffix_count) {
    ++evaluations_;
    return geotrain::evaluate_joined(model_, prefix, prefix_sums, head, junction, junction_count, suffix, suffix_sums,
                                     from, suffix_count);
  }
  std::int64_t evaluations() const { return evaluations_; }
  // Plans costed outside the operators (seeds, the final improvement step).
  void add_evaluations(std::int64_t count) { evaluations_ += count; }
  bool contiguous(const int* genes) { return contiguity_(genes, model_.num_layers()); }
  // CostModel::max_layers, remembered: the local search asks for the same
  // few stage counts again and again. A stage count's row (2 N entries) is
  // filled on first use.
  int max_layers(int gpu, int stage_count, bool last) {
    if (stage_count < 1 || stage_count >= static_cast<int>(max_layers_rows_.size()))
      return model_.max_layers(gpu, stage_count, last);
    std::vector<int>& row = max_layers_rows_[static_cast<std::size_t>(stage_count)];
    if (row.empty()) fill_max_layers_row(stage_count);
    return row[static_cast<std::size_t>(2 * gpu + (last ? 1 : 0))];
  }

  // Scratch buffers, each max(L, N) + 1 long. An operator may use any of
  // them during its call; none survives between calls.
  struct Scratch {
    std::vector<int> genes_a, genes_b;                           // candidate chromosomes
    std::vector<int> positions;                                  // cut or split positions
    std::vector<int> stage_gpu, stage_layers, stage_capacity;    // a decoded plan
    std::vector<int> gpus;                                       // a list of GPU indices
    std::vector<double> stage_time;                              // per stage: one layer's compute
    std::vector<double> stage_fixed;                             // per stage: its sends (and head)
    std::vector<Stage> stages_a, stages_b, stages_child;         // decoded parents and a candidate
    std::vector<int> starts_a, starts_b;                         // the parents' stage starts
    std::vector<StageSums> sums_a, sums_b;                       // and their stage sums
    // A crossover parent's index_stages when it comes as genes: per GPU (N
    // long) and its GPUs' and cuts' bits.
    std::vector<int> stage_of_gpu_a, stage_of_gpu_b;
    std::vector<std::uint64_t> gpu_bits_a, gpu_bits_b, cut_bits_a, cut_bits_b;
    // Crossover's cut positions as bits, L / 64 + 1 words each.
    std::vector<std::uint64_t> cut_words, bad_cut_words_1, bad_cut_words_2;
  };
  Scratch& scratch() { return scratch_; }
  // Each site's devices (CostModel::site_of), fastest per layer first, ties
  // by index: what the moves at the scale of sites add. Built on first use.
  const std::vector<std::vector<int>>& site_devices();

 private:
  const CostModel& model_;
  std::int64_t evaluations_ = 0;
  ContiguityCheck contiguity_;
  Scratch scratch_;
  std::vector<std::vector<int>> max_layers_rows_;  // [stage count][2 gpu + last], 1..min(N, L)
  std::vector<std::vector<int>> site_devices_;
  void fill_max_layers_row(int stage_count);
};

}  // namespace geotrain

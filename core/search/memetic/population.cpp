#include "search/memetic/population.hpp"

#include <algorithm>
#include <cstdint>
#include <set>

#include "model/input_error.hpp"
#include "search/space/plan_space.hpp"

namespace geotrain {

namespace {

// Partial Fisher-Yates from the front: values[0, count) become a uniform
// ordered sample without replacement of values[0, size).
void sample_front(int* values, int size, int count, Rng& rng) {
  for (int i = 0; i < count; ++i) {
    const int j = i + static_cast<int>(rng.below(static_cast<std::uint64_t>(size - i)));
    std::swap(values[i], values[j]);
  }
}

// What a Q-stage plan can hold, per GPU, and which GPUs can be its last stage.
struct StageCapacities {
  std::vector<int> middle, last;     // max_layers(g, Q, false / true)
  std::vector<int> eligible_last;    // GPUs j that complete some feasible Q-stage plan as its last stage
};

StageCapacities stage_capacities(const CostModel& model, int stage_count) {
  const int N = model.num_gpus(), L = model.num_layers(), others = stage_count - 1;
  StageCapacities c;
  c.middle.resize(N);
  c.last.resize(N);
  for (int g = 0; g < N; ++g) {
    c.middle[g] = model.max_layers(g, stage_count, false);
    c.last[g] = model.max_layers(g, stage_count, true);
  }
  if (stage_count < 1 || stage_count > N) return c;
  std::vector<int> order(N);
  for (int g = 0; g < N; ++g) order[g] = g;
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return c.middle[a] != c.middle[b] ? c.middle[a] > c.middle[b] : a < b; });
  std::vector<int> rank(N);
  std::vector<long long> prefix(N + 1, 0);
  for (int k = 0; k < N; ++k) rank[order[k]] = k, prefix[k + 1] = prefix[k] + c.middle[order[k]];
  for (int j = 0; j < N; ++j) {
    if (c.last[j] < 1) continue;
    // The `others` largest middle capacities without j's.
    const bool j_among_top = rank[j] < others;
    const long long sum = j_among_top ? prefix[others + 1] - c.middle[j] : prefix[others];
    const int smallest = others == 0 ? 1 : c.middle[order[j_among_top ? others : others - 1]];
    if (smallest >= 1 && c.last[j] + sum >= L) c.eligible_last.push_back(j);
  }
  return c;
}

// The stage counts both samplers draw from: 1..min(L, N), narrowed to the
// model's allowed range (CostModel::set_stage_count_range), so that a fixed
// stage count wastes no draws; empty when fewest > most. Unrestricted, the
// draws (and so every run) are exactly as before.
struct StageCountRange {
  int fewest, most;
};

StageCountRange drawable_stage_counts(const CostModel& model) {
  return {model.fewest_stages(), std::min({model.num_layers(), model.num_gpus(), model.most_stages()})};
}

}  // namespace

void draw_uniform_plan(Rng& rng, OperatorContext& context, int* genes) {
  const int L = context.num_layers(), N = context.num_gpus();
  OperatorContext::Scratch& scratch = context.scratch();
  const StageCountRange range = drawable_stage_counts(context.model());
  const int stages = rng.uniform_int(range.fewest, range.most);
  int* splits = scratch.positions.data();
  for (int b = 1; b < L; ++b) splits[b - 1] = b;
  sample_front(splits, L - 1, stages - 1, rng);
  std::sort(splits, splits + stages - 1);
  splits[stages - 1] = L;
  int* gpus = scratch.gpus.data();
  for (int g = 0; g < N; ++g) gpus[g] = g;
  sample_front(gpus, N, stages, rng);
  for (int q = 0, l = 0; q < stages; ++q)
    for (; l < splits[q]; ++l) genes[l] = gpus[q];
}

CapacityPlanSampler::CapacityPlanSampler(const CostModel& model) : model_(model) {
  const StageCountRange range = drawable_stage_counts(model);
  for (int q = range.fewest; q <= range.most; ++q)
    if (!stage_capacities(model, q).eligible_last.empty()) stage_counts_.push_back(q);
}

bool CapacityPlanSampler::draw(Rng& rng, int* genes) {
  if (stage_counts_.empty()) return false;
  const int N = model_.num_gpus(), L = model_.num_layers();
  const int stages = stage_counts_[rng.below(stage_counts_.size())];
  const StageCapacities c = stage_capacities(model_, stages);
  const int last = c.eligible_last[rng.below(c.eligible_last.size())];

  // Q - 1 other GPUs at random, then exchanged toward the largest capacities
  // (i-th smallest member for i-th largest outsider) until they hold the rest.
  std::vector<int> pool;
  for (int g = 0; g < N; ++g)
    if (g != last) pool.push_back(g);
  const int others = stages - 1;
  sample_front(pool.data(), static_cast<int>(pool.size()), others, rng);
  auto members = pool.begin(), outsiders = pool.begin() + others;
  auto smaller = [&](int a, int b) { return c.middle[a] != c.middle[b] ? c.middle[a] < c.middle[b] : a < b; };
  auto larger = [&](int a, int b) { return c.middle[a] != c.middle[b] ? c.middle[a] > c.middle[b] : a < b; };
  std::sort(members, outsiders, smaller);
  std::sort(outsiders, pool.end(), larger);
  long long held = c.last[last];
  for (int i = 0; i < others; ++i) held += c.middle[members[i]];
  const int swaps = std::min(others, static_cast<int>(pool.end() - outsiders));
  for (int i = 0; i < swaps; ++i) {
    if (held >= L && c.middle[members[i]] >= 1) break;
    if (c.middle[outsiders[i]] <= c.middle[members[i]]) break;
    held += c.middle[outsiders[i]] - c.middle[members[i]];
    std::swap(members[i], outsiders[i]);
  }
  int fewest = L;
  for (int i = 0; i < others; ++i) fewest = std::min(fewest, c.middle[members[i]]);
  if (held < L || fewest < 1) return false;  // cannot happen for an eligible last GPU
  rng.shuffle(members, outsiders);

  // One layer each, then the rest one at a time to a stage with room.
  std::vector<int> gpu(members, outsiders), capacity(stages), layers(stages, 1), open;
  gpu.push_back(last);
  for (int q = 0; q < stages; ++q) {
    capacity[q] = q + 1 == stages ? c.last[gpu[q]] : c.middle[gpu[q]];
    if (capacity[q] > 1) open.push_back(q);
  }
  for (int left = L - stages; left > 0; --left) {
    if (open.empty()) return false;  // cannot happen: the stages hold at least L
    const std::size_t k = rng.below(open.size());
    const int q = open[k];
    if (++layers[q] == capacity[q]) open[k] = open.back(), open.pop_back();
  }
  for (int q = 0, l = 0; q < stages; ++q) l = static_cast<int>(std::fill_n(genes + l, layers[q], gpu[q]) - genes);
  return true;
}

std::vector<Chromosome> initial_population(int size, Rng& rng, OperatorContext& context, const Deadline& deadline) {
  const int L = context.num_layers();
  const double space = plan_space_size(context.num_gpus(), L);
  const int wanted = space < size ? static_cast<int>(space) : size;
  std::vector<Chromosome> population;
  std::set<std::vector<int>> drawn;
  std::vector<int> genes(static_cast<std::size_t>(L));
  auto offer = [&]() {
    if (drawn.count(genes)) return;  // a duplicate costs no evaluation
    const PlanCost cost = context.evaluate(genes.data());
    if (!cost.feasible) return;
    drawn.insert(genes);
    population.push_back(Chromosome{genes, cost, decode_genes(genes)});
  };
  // Every 16 draws (a few microseconds on large pools) the clock is read.
  bool out_of_time = false;
  auto more = [&](std::int64_t d) {
    if ((d & 15) == 15 && !population.empty() && deadline.passed()) out_of_time = true;
    return !out_of_time && static_cast<int>(population.size()) < wanted;
  };
  const StageCountRange range = drawable_stage_counts(context.model());
  const std::int64_t uniform_draws =
      range.fewest <= range.most ? static_cast<std::int64_t>(kUniformDrawsPerIndividual) * wanted : 0;
  for (std::int64_t d = 0; d < uniform_draws && more(d); ++d) {
    draw_uniform_plan(rng, context, genes.data());
    offer();
  }
  if (!out_of_time && static_cast<int>(population.size()) < wanted) {
    CapacityPlanSampler sampler(context.model());
    const std::int64_t capacity_draws = static_cast<std::int64_t>(kCapacityDrawsPerIndividual) * wanted;
    for (std::int64_t d = 0; d < capacity_draws && more(d); ++d) {
      if (!sampler.draw(rng, genes.data())) break;
      offer();
    }
  }
  if (population.empty()) throw PlanningError("no feasible plan");  // callers check feasibility first
  std::sort(population.begin(), population.end(),
            [](const Chromosome& a, const Chromosome& b) { return fitter(a, b); });
  return population;
}

void tournament_select(int population_size, int count, int tournament, Rng& rng, std::vector<int>& parents) {
  parents.resize(static_cast<std::size_t>(count));
  for (int& parent : parents) {
    int winner = static_cast<int>(rng.below(static_cast<std::uint64_t>(population_size)));
    for (int t = 1; t < tournament; ++t)
      winner = std::min(winner, static_cast<int>(rng.below(static_cast<std::uint64_t>(population_size))));
    parent = winner;
  }
}

namespace {

// Genes as sort keys: the first genes packed most significant first into one
// word, `bits` per gene, so that comparing words compares those genes
// lexicographically; when they are all the genes, equal words are equal genes.
struct GenePacking {
  int bits = 1, genes_in_word = 64;
  GenePacking(int num_gpus, int layers) {
    while (bits < 31 && (1 << bits) < num_gpus) ++bits;
    genes_in_word = std::min(layers, 64 / bits);
  }
  std::uint64_t pack(const int* genes) const {
    std::uint64_t word = 0;
    for (int l = 0; l < genes_in_word; ++l) word = (word << bits) | static_cast<std::uint64_t>(genes[l]);
    return word;
  }
};

int gpu_bound(std::vector<Chromosome>& offspring, int count, const std::vector<Chromosome>& population) {
  int most = 0;
  for (int i = 0; i < count; ++i)
    for (int g : genes_of(offspring[i])) most = std::max(most, g);
  for (const Chromosome& c : population)
    for (int g : c.genes) most = std::max(most, g);
  return most + 1;
}

}  // namespace

int deduplicate(std::vector<Chromosome>& offspring, int count, const std::vector<Chromosome>& population) {
  return deduplicate(offspring, count, population, gpu_bound(offspring, count, population));
}

int deduplicate(std::vector<Chromosome>& offspring, int count, const std::vector<Chromosome>& population,
                int num_gpus, const Chromosome* cutoff) {
  // Sorted as keys (objective, packed genes, slot), then the kept chromosomes
  // moved once into place: sorting the chromosomes themselves moves each many
  // times, and comparing packed words is cheaper than comparing genes (in a
  // converged population many children tie on the objective). The order is
  // fitter's, a total order, so it is the same either way.
  struct Key {
    double objective;
    std::uint64_t packed;
    const int* genes;
    int slot;
  };
  const int L = count > 0 ? static_cast<int>(genes_of(offspring[0]).size()) : 0;
  const GenePacking packing(num_gpus, L);
  const int from = packing.genes_in_word;  // genes the word does not decide
  std::vector<Key> keys;
  keys.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    Chromosome& child = offspring[i];
    // Only a tie on the objective needs the genes to decide against the cutoff.
    if (cutoff && child.cost.objective > cutoff->cost.objective) continue;
    const int* genes = genes_of(child).data();
    if (cutoff && !fitter(child, *cutoff)) continue;
    keys.push_back(Key{child.cost.objective, packing.pack(genes), genes, i});
  }
  auto before = [L, from](const Key& a, const Key& b) {
    if (a.objective != b.objective) return a.objective < b.objective;
    if (a.packed != b.packed) return a.packed < b.packed;
    return std::lexicographical_compare(a.genes + from, a.genes + L, b.genes + from, b.genes + L);
  };
  std::sort(keys.begin(), keys.end(), before);
  // Equal genes have equal costs, so duplicates sit next to each other, and
  // both lists are sorted: one walk through the population finds a member
  // equal to a child where binary search would put the child.
  auto same = [L, from](const Key& a, const Key& b) {
    return a.packed == b.packed && std::equal(a.genes + from, a.genes + L, b.genes + from);
  };
  std::vector<int> kept_slots;
  kept_slots.reserve(static_cast<std::size_t>(count));
  std::size_t member = 0;
  const Key* last_kept = nullptr;
  for (const Key& key : keys) {
    if (last_kept && same(*last_kept, key)) continue;
    while (member < population.size() &&
           fitter(population[member].cost.objective, population[member].genes.data(), key.objective, key.genes, L))
      ++member;
    if (member < population.size() && population[member].cost.objective == key.objective &&
        std::equal(key.genes, key.genes + L, population[member].genes.data()))
      continue;
    kept_slots.push_back(key.slot);
    last_kept = &key;
  }
  // Slot kept_slots[k] goes to place k; the dropped ones fill the places after.
  const int kept = static_cast<int>(kept_slots.size());
  std::vector<int> place(static_cast<std::size_t>(count), -1);  // where each slot's chromosome goes
  for (int k = 0; k < kept; ++k) place[kept_slots[k]] = k;
  for (int i = 0, next = kept; i < count; ++i)
    if (place[i] < 0) place[i] = next++;
  for (int i = 0; i < count; ++i)  // follow each cycle of the permutation with swaps
    while (place[i] != i) {
      const int to = place[i];
      swap(offspring[i], offspring[to]);
      std::swap(place[i], place[to]);
    }
  return kept;
}

void steady_state_replace(std::vector<Chromosome>& population, std::vector<Chromosome>& offspring, int count,
                          int elite, int capacity, std::vector<Chromosome>& spare) {
  const int incumbents = static_cast<int>(population.size());
  const int size = std::min(capacity, incumbents + count);
  const int kept = std::min(elite, incumbents);
  if (static_cast<int>(spare.size()) < size) spare.resize(static_cast<std::size_t>(size));
  // Merge both sorted lists, fittest first. The elite (the first `kept`
  // incumbents) always get a place; everyone else competes for the rest.
  int open = size - kept, t = 0, i = 0, j = 0;
  while (i < kept || open > 0) {
    const bool incumbent_next = j >= count || (i < incumbents && fitter(population[i], offspring[j]));
    if (incumbent_next) {
      if (i >= kept) --open;  // i < kept: an elite, placed whatever `open` says
      swap(spare[t++], population[i++]);
    } else if (open > 0) {
      swap(spare[t++], offspring[j++]);
      --open;
    } else {
      ++j;  // the open places are gone; only elites still to come get one
    }
  }
  spare.resize(static_cast<std::size_t>(size));
  std::swap(population, spare);
}

}  // namespace geotrain

#include "search/memetic/memetic.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "search/baselines/baselines.hpp"
#include "search/exact/exact.hpp"
#include "search/memetic/local_search.hpp"
#include "search/memetic/mutation.hpp"
#include "search/memetic/population.hpp"
#include "search/memetic/seeds.hpp"

namespace geotrain {

namespace {

[[noreturn]] void reject(const char* setting, const std::string& rule) {
  throw std::invalid_argument(std::string("search.") + setting + ": " + rule);
}

std::string text(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

void check_rate(const char* setting, double rate) {
  if (!(rate >= 0 && rate <= 1)) reject(setting, "must be in [0, 1], got " + text(rate));
}

const SearchSettings& validated(const SearchSettings& settings) {
  validate_search_settings(settings);
  return settings;
}

}  // namespace

void validate_search_settings(const SearchSettings& s) {
  if (s.population < 2) reject("population", "must be at least 2, got " + std::to_string(s.population));
  if (s.tournament < 1 || s.tournament > s.population)
    reject("tournament", "must be between 1 and search.population (" + std::to_string(s.population) + "), got " +
                             std::to_string(s.tournament));
  if (s.elite < 0 || s.elite >= s.population)
    reject("elite", "must be at least 0 and below search.population (" + std::to_string(s.population) + "), got " +
                        std::to_string(s.elite));
  check_rate("local_search_rate", s.local_search_rate);
  check_rate("crossover_fallback_rate", s.crossover_fallback_rate);
  if (!(s.time_limit_s > 0) || !std::isfinite(s.time_limit_s))
    reject("time_limit_s", "must be a positive number of seconds, got " + text(s.time_limit_s));
  if (s.patience < 1) reject("patience", "must be at least 1, got " + std::to_string(s.patience));
  if (s.max_generations < 1) reject("max_generations", "must be at least 1, got " + std::to_string(s.max_generations));
}

MemeticRun::MemeticRun(const CostModel& model, const SearchSettings& settings)
    : settings_(validated(settings)), rng_(settings.seed), context_(model) {
  population_ = initial_population(settings_.population, rng_, context_, deadline());  // Alg. 1, lines 1-2
  // Not in the paper (MEMETIC.md, "Moves at the scale of sites and stages"):
  // on large pools exact's first plans join the random ones.
  if (context_.num_gpus() > kPaperMovesMaxGpus && settings_.scale_moves.seeds)
    offer_seeds(population_, exact_seeds(context_), settings_.population);
  best_objective_ = population_.front().cost.objective;                     // line 3
  check_stopping_rules();
}

bool MemeticRun::step() {
  if (finished_) return false;
  // Not in the paper (MEMETIC.md, "Restarts"): on a large pool, halfway to
  // the patience without progress, every plan one site- or stage-scale move
  // from the best competes for a place.
  if (stalled_ > 0 && stalled_ == settings_.patience / 2 && context_.num_gpus() > kPaperMovesMaxGpus &&
      settings_.scale_moves.restarts) {
    offer_seeds(population_, sweep_around(population_.front(), context_), settings_.population);
    if (!settings_.scale_moves.seeds) offer_seeds(population_, exact_seeds(context_), settings_.population);
    // Once a run, exact's search from the best plan (MEMETIC.md, "Exact at
    // the restarts") on an eighth of the final step's nodes, taken from that
    // step's: its plan competes like any other, so the generations left can
    // still improve on it. Its gain is not the generations' progress: the
    // run stops when it would have.
    SolveResult improved;
    const bool progressed = population_.front().cost.objective < best_objective_;
    if (settings_.scale_moves.stall_polish && !restart_searched_) {
      restart_searched_ = true;
      if (exact_from(decode_genes(population_.front().genes), (1.0 - kPolishShare) * settings_.time_limit_s,
                     kRestartNodeShare, improved)) {
        offer_seeds(population_, {Chromosome{encode_plan(improved.plan), improved.cost, {}}}, settings_.population);
        if (!progressed) best_objective_ = population_.front().cost.objective;
      }
    }
  }
  breed();
  ++generation_;
  // Lines 21-23: the population is sorted and elitist, so its front is C*.
  if (population_.front().cost.objective < best_objective_) {
    best_objective_ = population_.front().cost.objective;
    stalled_ = 0;
  } else {
    ++stalled_;
  }
  check_stopping_rules();
  return !finished_;
}

// A member as crossover reads it: its own stage list, starts and stage
// sums, kept with it from the generation it first acted as a parent.
StageView MemeticRun::member_stages(int member) {
  Chromosome& c = population_[static_cast<std::size_t>(member)];
  const StageSums* sums = sums_of(c, context_.model()).data();  // fills c.starts and the index too
  return StageView{c.stages.data(), c.starts.data(), static_cast<int>(c.stages.size()), sums,
                   c.cut_bits.data(), c.gpu_bits.data(), c.stage_of_gpu.data()};
}

// Alg. 1, lines 7-20.
void MemeticRun::breed() {
  const int size = static_cast<int>(population_.size());
  tournament_select(size, size, settings_.tournament, rng_, parents_);
  offspring_count_ = 0;
  if (offspring_.size() < 2 * parents_.size()) offspring_.resize(2 * parents_.size());
  for (std::size_t iter = 0; size >= 2 && iter < parents_.size(); ++iter) {
    // A generation on a large pool takes milliseconds: the time limit may
    // end it early (the offspring so far still compete). Every 8 crossovers
    // keeps the clock's cost negligible on small pools.
    if ((iter & 7) == 7 && deadline().passed()) break;
    // A random pair of distinct places in the parent list (line 10).
    const int a = static_cast<int>(rng_.below(static_cast<std::uint64_t>(size)));
    int b = static_cast<int>(rng_.below(static_cast<std::uint64_t>(size - 1)));
    if (b >= a) ++b;
    const Chromosome& p1 = population_[parents_[a]];
    const Chromosome& p2 = population_[parents_[b]];
    // Line 11. Equal genes have equal objectives: only a tie needs the genes.
    if (parents_[a] == parents_[b] || (p1.cost.objective == p2.cost.objective && p1.genes == p2.genes)) continue;
    offspring_count_ += boundary_crossover(member_stages(parents_[a]), member_stages(parents_[b]),
                                           settings_.crossover_fallback_rate, rng_, context_, &offspring_[offspring_count_]);
  }

  // Lines 13-15: mutate offspring no fitter than the population's best.
  const double best = population_.front().cost.objective;
  for (int c = 0; c < offspring_count_; ++c)
    if (offspring_[c].cost.objective >= best) mutate(offspring_[c], rng_, context_, settings_.shift_both_ways, settings_.scale_moves);
  // Lines 16-17.
  for (int c = 0; c < offspring_count_; ++c)
    if (rng_.bernoulli(settings_.local_search_rate)) rebalance_capacity(offspring_[c], context_);
  // Lines 18-19.
  // In a full population every incumbent is at least as fit as the worst:
  // offspring not fitter than it can take no place, so they are not sorted.
  const bool full = static_cast<int>(population_.size()) >= settings_.population;
  offspring_count_ =
      deduplicate(offspring_, offspring_count_, population_, context_.num_gpus(), full ? &population_.back() : nullptr);
  steady_state_replace(population_, offspring_, offspring_count_, settings_.elite, settings_.population, spare_);
}

// Not in the paper (MEMETIC.md, "Final improvement"): branch and bound from
// the best plan (or metis-improved's, when better) as its incumbent (which it first climbs: layer moves, GPU
// swaps, stage splits and merges), on a node budget in proportion to the
// evaluations the run made (so the step costs about as much as the run and
// is deterministic), and never past the time limit. Never on a cancel: that must
// answer at once.
void MemeticRun::polish_best() {
  // Exact's start-up alone (pool tables, O(N^2)) takes milliseconds on large
  // pools: with less time left than kPolishMinMs the step would overrun.
  if (settings_.time_limit_s * 1000.0 - clock_.elapsed_ms() < kPolishMinMs) return;
  // The better of the run's best and metis-improved's plan is the incumbent
  // (exact adds its greedy plans itself): never worse than those baselines.
  Plan start = decode_genes(population_.front().genes);
  const SolveResult metis = run_metis_improved(context_.model(), settings_.seed,
                                               Deadline(clock_, settings_.time_limit_s * 1000.0));
  context_.add_evaluations(metis.evaluations);
  if (metis.cost.feasible && metis.cost.objective < population_.front().cost.objective) start = metis.plan;
  SolveResult improved;
  if (!exact_from(start, settings_.time_limit_s, 1, improved)) return;
  population_.insert(population_.begin(), Chromosome{encode_plan(improved.plan), improved.cost, {}});  // strictly fittest: new
  if (static_cast<int>(population_.size()) > settings_.population) population_.pop_back();
  best_objective_ = improved.cost.objective;
}

bool MemeticRun::exact_from(const Plan& start, double limit_s, int share, SolveResult& improved) {
  const CostModel& model = context_.model();
  const bool large = model.num_gpus() > kPaperMovesMaxGpus;
  const double n = model.num_gpus(), work_per_node = n * (n + 2.0 * model.num_layers());
  ExactSettings exact;
  exact.bottleneck_floor = false;  // its node budget explores as it always did
  const double work = kPolishWorkPerEvaluation * static_cast<double>(context_.evaluations());
  std::int64_t budget = std::max<std::int64_t>(kPolishMinNodes, static_cast<std::int64_t>(work / work_per_node));
  if (large && settings_.scale_moves.final_nodes)
    budget = std::max<std::int64_t>(budget, kPolishLargePoolNodesTimesGpus / model.num_gpus());
  // A share of the budget (the restarts'), or what the restarts left of it
  // (at least half).
  exact.max_nodes = share > 1 ? std::max<std::int64_t>(kPolishMinNodes, budget / share)
                              : std::max(budget / 2, budget - restart_nodes_spent_);
  // On large pools the search runs above the bottleneck floor from its first
  // node (MEMETIC.md, "The floor in the final step"): the floor's searches
  // over GPU sequences find plans of a smaller largest stage time, often at
  // another stage count where memory allows fewer layers a stage, which no
  // move reaches in one step. Its crossing flows (about a second at 256
  // GPUs) are left out.
  const bool floor = large && settings_.scale_moves.final_floor;
  if (floor) {
    exact.bottleneck_floor = true;
    exact.crossing_flow_work = 0;
    exact.floor_check_nodes = exact.max_nodes;  // no plain search first
  }
  Plan from = start;
  bool gained = false;
  // One search from `from`; true when it found a better plan, which becomes `from`.
  auto search_gains = [&](ExactSettings settings, bool skip_when_late) {
    settings.time_limit_s = limit_s - clock_.elapsed_ms() / 1000.0;
    if (skip_when_late && settings.time_limit_s * 1000.0 < kPolishMinMs) return false;
    settings.time_limit_s = std::max(1e-6, settings.time_limit_s);
    const SolveResult found = solve_exact(model, settings, from);
    context_.add_evaluations(found.evaluations);
    if (share > 1) restart_nodes_spent_ += found.nodes;
    const double best = gained ? improved.cost.objective : population_.front().cost.objective;
    if (!found.cost.feasible || !(found.cost.objective < best)) return false;
    improved = found;
    gained = true;
    from = found.plan;
    return true;
  };
  if (!floor || share > 1) {
    search_gains(exact, share > 1);
    return gained;
  }
  // The final step with the floor: each search that gains starts another
  // from its plan on an eighth of the budget (climbing and floors from the
  // new incumbent find more), up to kPolishRounds in a row. Then one search
  // without the floor on the final budget from where they ended: the floor
  // steers exact towards a small largest stage time, and on some pools
  // (fast-wan 256 x 96 seed 2, MEMETIC.md, "A plain last search") the plain
  // search's neighbourhood of that plan holds a better one; when it gains,
  // floored searches go on from its plan as before. Only up to
  // kPlainLastSearchMaxGpus devices: it costs most where nodes cost most.
  ExactSettings later = exact;
  later.max_nodes = std::max<std::int64_t>(kPolishMinNodes, budget / kLaterRoundShare);
  auto floored_rounds = [&](bool gains) {
    for (int round = 1; gains && round < kPolishRounds; ++round) gains = search_gains(later, true);
  };
  floored_rounds(search_gains(exact, false));
  if (!settings_.scale_moves.final_plain || model.num_gpus() > kPlainLastSearchMaxGpus) return gained;
  ExactSettings plain = exact;
  plain.bottleneck_floor = false;
  plain.max_nodes = budget;
  if (search_gains(plain, true)) floored_rounds(search_gains(later, true));
  return gained;
}

// Alg. 1, lines 4-6, in the paper's order: generation bound, time, patience.
void MemeticRun::check_stopping_rules() {
  if (finished_) return;
  if (generation_ >= settings_.max_generations) return finish("max_generations");
  if (deadline().passed()) return finish("time_limit");
  if (stalled_ >= settings_.patience) return finish("patience");
}

void MemeticRun::finish(const char* reason) {
  if (std::string(reason) != "cancelled") polish_best();
  finished_ = true;
  finished_ms_ = clock_.elapsed_ms();
  stop_reason_ = reason;
}

void MemeticRun::cancel() {
  if (!finished_) finish("cancelled");
}

Progress MemeticRun::progress() const {
  Progress p;
  p.generation = generation_;
  p.evaluations = context_.evaluations();
  p.elapsed_ms = finished_ ? finished_ms_ : clock_.elapsed_ms();
  p.has_plan = true;
  p.best_plan = decode_genes(population_.front().genes);
  p.best_cost = population_.front().cost;
  return p;
}

SolveResult MemeticRun::result() const {
  SolveResult r;
  r.method = "memetic";
  r.plan = decode_genes(population_.front().genes);
  r.cost = population_.front().cost;
  r.evaluations = context_.evaluations();
  r.generations = generation_;
  r.elapsed_ms = finished_ ? finished_ms_ : clock_.elapsed_ms();
  r.stop_reason = stop_reason_;
  return r;
}

MemeticAlgorithm::MemeticAlgorithm(const SearchSettings& settings) : settings_(validated(settings)) {}

SolveResult MemeticAlgorithm::evolve(const CostModel& model, const ProgressCallback& progress) const {
  MemeticRun run(model, settings_);
  while (!run.finished()) {
    run.step();
    if (progress && !progress(run.progress())) run.cancel();
  }
  return run.result();
}

}  // namespace geotrain

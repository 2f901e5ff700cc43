#pragma once
// GeoTrain's memetic algorithm (paper, Sect. 5, Alg. 1-4), pagmo2 style:
// MemeticAlgorithm holds the settings (with the seed) and evolves a problem;
// MemeticRun is the same search one generation per step, for callers that
// show live progress or cancel (the browser). Decisions where the paper is
// silent or garbled: core/MEMETIC.md.
#include <cstdint>
#include <string>
#include <vector>

#include "search/memetic/boundary_crossover.hpp"
#include "search/memetic/chromosome.hpp"
#include "model/cost_model.hpp"
#include "model/problem.hpp"
#include "search/random.hpp"
#include "search/solve_result.hpp"
#include "search/stopwatch.hpp"

namespace geotrain {

// Throws std::invalid_argument naming the first bad setting, e.g.
// "search.tournament: must be between 1 and search.population (200), got 0".
void validate_search_settings(const SearchSettings& settings);

// The final improvement step's share of the time limit and its plan budget.
constexpr double kPolishShare = 0.1;
// Its node budget: kPolishWorkPerEvaluation units of work per evaluation the
// run made, over one node's work, N (N + 2 L) units.
constexpr double kPolishWorkPerEvaluation = 200;
constexpr std::int64_t kPolishMinNodes = 100;
// On pools of more than kPaperMovesMaxGpus devices at least this over N
// nodes: about what exact reaches in a second at these sizes (issue 23), so
// that a run that converged in few generations still ends no worse than
// exact's first second would from its plan.
constexpr std::int64_t kPolishLargePoolNodesTimesGpus = std::int64_t{1} << 20;
// On large pools: searches in the final step while each gains (the later
// ones on 1 / kLaterRoundShare of its nodes), and the share of its nodes the
// one search at the restarts takes (issue 23).
constexpr int kPolishRounds = 4;
constexpr int kLaterRoundShare = 8;
constexpr int kRestartNodeShare = 8;
// The final step's plain last search (MEMETIC.md, "A plain last search")
// runs on pools of up to this many devices: above, a node of exact's costs
// about a millisecond (1,365 nodes took 1.4 s after a 3.1-s run on the
// 512-GPU geo pool), and no 512-GPU pool of the hard family gained from it.
constexpr int kPlainLastSearchMaxGpus = 256;
constexpr double kPolishMinMs = 50;  // skipped with less time than this left

class MemeticRun {
 public:
  // Keeps a reference to `model`; builds the initial population (the caller
  // guarantees some plan is feasible, see feasibility.hpp; otherwise throws
  // PlanningError). Throws std::invalid_argument on bad settings.
  MemeticRun(const CostModel& model, const SearchSettings& settings);

  // Runs one generation (Alg. 1, lines 7-23), then checks the stopping rules.
  // Returns false once one has fired; from then on it does nothing.
  bool step();
  bool finished() const { return finished_; }
  void cancel();  // stop_reason "cancelled" (no effect once finished)

  Progress progress() const;
  // Best plan so far, evaluations, generations; stop_reason is empty while running.
  SolveResult result() const;

  int generation() const { return generation_; }
  std::int64_t evaluations() const { return context_.evaluations(); }
  const std::vector<Chromosome>& population() const { return population_; }  // sorted, fittest first

 private:
  void breed();
  void check_stopping_rules();
  void finish(const char* reason);
  void polish_best();
  // Exact's branch and bound from `start` with the final step's settings,
  // until limit_s into the run; true with its plan in `improved` when that
  // fits and is strictly better than the population's best.
  // `share` > 1: that share of the final step's node budget (the restarts);
  // 1: the final step (what the restarts left, in rounds while it gains).
  bool exact_from(const Plan& start, double limit_s, int share, SolveResult& improved);
  // The generations stop at (1 - kPolishShare) of the time limit: the final
  // improvement step has the rest.
  Deadline deadline() const { return Deadline(clock_, (1.0 - kPolishShare) * settings_.time_limit_s * 1000.0); }

  SearchSettings settings_;
  Stopwatch clock_;
  Rng rng_;
  OperatorContext context_;
  std::vector<Chromosome> population_;
  std::vector<Chromosome> offspring_;  // slots reused across generations; the first offspring_count_ are live
  std::vector<Chromosome> spare_;      // recycled by the replacement
  std::vector<int> parents_;
  StageView member_stages(int member);
  int offspring_count_ = 0;
  int generation_ = 0;
  int stalled_ = 0;  // generations since the best objective last fell
  bool restart_searched_ = false;         // exact has run at a restart
  std::int64_t restart_nodes_spent_ = 0;  // its nodes, taken from the final step's
  double best_objective_ = 0;
  bool finished_ = false;
  double finished_ms_ = 0;
  std::string stop_reason_;
};

class MemeticAlgorithm {
 public:
  // Throws std::invalid_argument naming the bad setting.
  explicit MemeticAlgorithm(const SearchSettings& settings);

  // Runs a MemeticRun to its end, calling `progress` after each generation;
  // a false return cancels. method = "memetic".
  SolveResult evolve(const CostModel& model, const ProgressCallback& progress = {}) const;

  const SearchSettings& settings() const { return settings_; }

 private:
  SearchSettings settings_;
};

}  // namespace geotrain

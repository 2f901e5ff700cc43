#pragma once
// The memetic algorithm over stage groups (search.parallelism "hybrid"): an
// outer search over layouts (a shape per node, node_shapes.hpp) around the
// paper's memetic algorithm, which plans each layout's devices (order, subset,
// layer split). Every candidate layout's run is screened for a few
// generations; descent moves a kind of node, then a single node, to another
// shape; the best runs and the one-GPU-per-stage run are then carried on to
// their own stopping rules. Since that last run is exactly the pipeline-only
// memetic run, the hybrid plan is never worse than the pipeline plan it would
// find. Deterministic: every run uses the settings' seed, and the order of
// candidates is fixed. Design and measurements: core/MEMETIC.md.
#include <memory>
#include <set>
#include <vector>

#include "search/space/hybrid_layouts.hpp"
#include "search/memetic/memetic.hpp"
#include "search/stopwatch.hpp"

namespace geotrain {

// Fixed counts, never the clock, decide what is tried: the same seed gives the
// same plan on every machine (the time limit only cuts a run short).
struct HybridSettings {
  int screen_generations = 10;      // generations every candidate layout gets
  long long enumerate_up_to = 32;   // every choice is screened when there are at most this many
  int per_node_up_to = 4;           // single-node moves when at most this many nodes have a choice
  int descent_passes = 1;
  int max_layouts = 40;             // layouts screened at most
  int finalists = 1;                // hybrid runs carried on to their stopping rules
  // Patience of the runs on layouts with groups (the one-GPU-per-stage run
  // keeps the settings' own, so that it is the pipeline memetic run exactly):
  // a coarse layout's few devices converge in fewer generations.
  int group_patience = 10;
};

class HybridRun {
 public:
  // `pipeline` is the prepared model (objective settings, stage-count range);
  // both it and `problem` must outlive the run. Throws PlanningError when no
  // layout has a feasible plan, std::invalid_argument on bad settings.
  HybridRun(const Problem& problem, const CostModel& pipeline, const SearchSettings& settings,
            HybridSettings hybrid = {});
  ~HybridRun();

  // One unit of work: one generation of the current run (or building one).
  // Returns false once the search has ended.
  bool step();
  bool finished() const { return finished_; }
  void cancel();

  Progress progress() const;
  SolveResult result() const;  // method "memetic", layout = the plan's groups
  int layouts_tried() const { return static_cast<int>(seen_.size()); }

 private:
  struct Candidate;
  void screen_next();
  void keep_current();
  void release(const Candidate& candidate);
  bool continue_finalist();
  void plan_descent();
  void note_best(const Candidate& candidate);
  void finish(const char* reason);
  std::int64_t total_evaluations() const;
  int total_generations() const;

  const Problem& problem_;
  SearchSettings settings_;
  HybridSettings hybrid_;
  LayoutSpace space_;
  Stopwatch clock_;
  std::vector<ShapeChoice> queue_;  // to screen, in order
  std::size_t next_ = 0;
  std::set<ShapeChoice> seen_;
  std::unique_ptr<Candidate> current_;            // being screened
  std::vector<std::unique_ptr<Candidate>> kept_;  // screened runs that may become finalists
  std::unique_ptr<Candidate> pipeline_;           // the one-GPU-per-device run, always finished
  ShapeChoice descent_from_;
  int passes_ = 0;
  bool finals_ = false;
  std::int64_t evaluations_ = 0;  // of runs already released
  int generations_ = 0;
  // The best plan any run has reached.
  bool has_best_ = false;
  Plan best_plan_;
  GroupLayout best_layout_;
  PlanCost best_cost_;
  ShapeChoice best_choice_;
  std::string best_stop_reason_;
  bool finished_ = false;
  double finished_ms_ = 0;
  std::string stop_reason_;
};

// Whether some plan fits in memory on one of `choices`' layouts.
bool any_feasible_layout(const LayoutSpace& space, const std::vector<ShapeChoice>& choices);

// Runs a HybridRun to its end, calling `progress` after each step.
SolveResult evolve_hybrid(const Problem& problem, const CostModel& pipeline, const SearchSettings& settings,
                          const ProgressCallback& progress = {});

}  // namespace geotrain

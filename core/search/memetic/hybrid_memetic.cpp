#include "search/memetic/hybrid_memetic.hpp"

#include <algorithm>

#include "model/feasibility.hpp"
#include "model/input_error.hpp"
#include "search/exact/exact_incumbent.hpp"

namespace geotrain {

struct HybridRun::Candidate {
  ShapeChoice choice;
  std::unique_ptr<CostModel> model;
  std::unique_ptr<MemeticRun> run;

  PlanCost cost() const { return run->population().front().cost; }
};

HybridRun::HybridRun(const Problem& problem, const CostModel& pipeline, const SearchSettings& settings,
                     HybridSettings hybrid)
    : problem_(problem), settings_(settings), hybrid_(hybrid), space_(problem, pipeline) {
  validate_search_settings(settings_);
  queue_ = space_.starting_choices(hybrid_.enumerate_up_to);
  // A plan to return even when the time limit falls before any run has one.
  for (const ShapeChoice& choice : queue_) {
    const auto model = space_.model(choice);
    if (!any_feasible_plan(*model)) continue;
    best_plan_ = memory_feasible_plan(*model);
    best_cost_ = model->evaluate(best_plan_);
    best_layout_ = model->layout();
    best_choice_ = choice;
    has_best_ = true;
    break;
  }
  if (!has_best_)
    throw PlanningError(infeasibility_reason(pipeline, problem) +
                        " No stage-group layout fits either (groups divide a layer's memory by their tensor degree).");
}

HybridRun::~HybridRun() = default;

bool any_feasible_layout(const LayoutSpace& space, const std::vector<ShapeChoice>& choices) {
  for (const ShapeChoice& c : choices)
    if (any_feasible_plan(*space.model(c))) return true;
  return false;
}

bool HybridRun::step() {
  if (finished_) return false;
  if (clock_.elapsed_ms() >= settings_.time_limit_s * 1000.0) {
    finish("time_limit");
    return false;
  }
  if (current_) {
    current_->run->step();
    note_best(*current_);
    if (current_->run->finished() || current_->run->generation() >= hybrid_.screen_generations) keep_current();
    return true;
  }
  if (next_ < queue_.size() && static_cast<int>(seen_.size()) < hybrid_.max_layouts) {
    screen_next();
    return true;
  }
  if (!finals_ && passes_ < hybrid_.descent_passes && best_choice_ != descent_from_ &&
      static_cast<int>(seen_.size()) < hybrid_.max_layouts) {
    plan_descent();
    if (next_ < queue_.size()) return true;
  }
  finals_ = true;
  if (continue_finalist()) return true;
  finish(best_stop_reason_.empty() ? "complete" : best_stop_reason_.c_str());
  return false;
}

// Builds the next queued candidate's model and its run's initial population.
void HybridRun::screen_next() {
  const ShapeChoice& choice = queue_[next_++];
  if (!seen_.insert(choice).second) return;
  auto candidate = std::make_unique<Candidate>();
  candidate->choice = choice;
  candidate->model = space_.model(choice);
  if (!any_feasible_plan(*candidate->model)) return;
  SearchSettings run_settings = settings_;
  run_settings.time_limit_s = std::max(1e-3, settings_.time_limit_s - clock_.elapsed_ms() / 1000.0);
  if (!space_.is_pipeline(choice)) {
    run_settings.patience = std::min(run_settings.patience, hybrid_.group_patience);
    // A screened layout's final step keeps the budget its evaluations earn:
    // about a second of exact's nodes for each of up to max_layouts layouts
    // made the 64-A100 example eight times slower (issue 23).
    run_settings.scale_moves.final_nodes = false;
    run_settings.scale_moves.final_floor = false;
    run_settings.scale_moves.stall_polish = false;
  }
  candidate->run = std::make_unique<MemeticRun>(*candidate->model, run_settings);
  note_best(*candidate);
  current_ = std::move(candidate);
  if (current_->run->finished()) keep_current();
}

// A screened run is kept when it ranks among the finalists (the pipeline run
// always is); the others are released.
void HybridRun::keep_current() {
  std::unique_ptr<Candidate> candidate = std::move(current_);
  if (space_.is_pipeline(candidate->choice)) {
    pipeline_ = std::move(candidate);
    return;
  }
  auto at = std::find_if(kept_.begin(), kept_.end(),
                         [&](const std::unique_ptr<Candidate>& k) { return better_result(candidate->cost(), k->cost()); });
  kept_.insert(at, std::move(candidate));
  if (kept_.size() > static_cast<std::size_t>(hybrid_.finalists)) {
    release(*kept_.back());
    kept_.pop_back();
  }
}

void HybridRun::release(const Candidate& candidate) {
  evaluations_ += candidate.run->evaluations();
  generations_ += candidate.run->generation();
}

void HybridRun::plan_descent() {
  descent_from_ = best_choice_;
  ++passes_;
  const bool per_node = space_.flexible_nodes() <= hybrid_.per_node_up_to;
  for (ShapeChoice& c : space_.neighbours(best_choice_, per_node))
    if (!seen_.count(c)) queue_.push_back(std::move(c));
}

// One generation of the first finalist that has not met its stopping rules:
// the pipeline run, then the kept runs, best first.
bool HybridRun::continue_finalist() {
  std::vector<Candidate*> finalists;
  if (pipeline_) finalists.push_back(pipeline_.get());
  for (auto& k : kept_) finalists.push_back(k.get());
  for (Candidate* c : finalists) {
    if (c->run->finished()) continue;
    c->run->step();
    note_best(*c);
    return true;
  }
  return false;
}

void HybridRun::note_best(const Candidate& candidate) {
  if (has_best_ && !better_result(candidate.cost(), best_cost_)) {
    // The best plan's run may end later without bettering it: its reason is the search's.
    if (candidate.choice == best_choice_ && candidate.run->finished()) best_stop_reason_ = candidate.run->result().stop_reason;
    return;
  }
  const SolveResult r = candidate.run->result();
  has_best_ = true;
  best_plan_ = r.plan;
  best_cost_ = r.cost;
  best_layout_ = candidate.model->layout();
  best_choice_ = candidate.choice;
  best_stop_reason_ = r.stop_reason;
}

void HybridRun::finish(const char* reason) {
  finished_ = true;
  finished_ms_ = clock_.elapsed_ms();
  stop_reason_ = reason;
}

void HybridRun::cancel() {
  if (!finished_) finish("cancelled");
}

std::int64_t HybridRun::total_evaluations() const {
  std::int64_t total = evaluations_;
  for (const Candidate* c : {current_.get(), pipeline_.get()})
    if (c) total += c->run->evaluations();
  for (const auto& k : kept_) total += k->run->evaluations();
  return total;
}

int HybridRun::total_generations() const {
  int total = generations_;
  for (const Candidate* c : {current_.get(), pipeline_.get()})
    if (c) total += c->run->generation();
  for (const auto& k : kept_) total += k->run->generation();
  return total;
}

Progress HybridRun::progress() const {
  Progress p;
  p.generation = total_generations();
  p.evaluations = total_evaluations();
  p.elapsed_ms = finished_ ? finished_ms_ : clock_.elapsed_ms();
  p.has_plan = has_best_;
  p.best_plan = best_plan_;
  p.best_layout = best_layout_;
  p.best_cost = best_cost_;
  return p;
}

SolveResult HybridRun::result() const {
  SolveResult r;
  r.method = "memetic";
  r.plan = best_plan_;
  r.layout = best_layout_;
  r.cost = best_cost_;
  r.evaluations = total_evaluations();
  r.generations = total_generations();
  r.elapsed_ms = finished_ ? finished_ms_ : clock_.elapsed_ms();
  r.stop_reason = stop_reason_;
  r.layouts_tried = static_cast<int>(seen_.size());
  return r;
}

SolveResult evolve_hybrid(const Problem& problem, const CostModel& pipeline, const SearchSettings& settings,
                          const ProgressCallback& progress) {
  HybridRun run(problem, pipeline, settings);
  while (run.step()) {
    if (progress && !progress(run.progress())) run.cancel();
  }
  return run.result();
}

}  // namespace geotrain

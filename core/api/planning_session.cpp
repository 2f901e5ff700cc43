#include "api/planning_session.hpp"

#include "api/api.hpp"
#include "model/input_error.hpp"
#include "search/memetic/hybrid_memetic.hpp"
#include "search/memetic/memetic.hpp"
#include "model/problem_json.hpp"
#include "search/stopwatch.hpp"

namespace geotrain {

class SteppedRun {
 public:
  virtual ~SteppedRun() = default;
  virtual bool step() = 0;
  virtual bool finished() const = 0;
  virtual void cancel() = 0;
  virtual Progress progress() const = 0;
  virtual SolveResult result() const = 0;
};

namespace {

template <typename Run>
class SteppedRunOf final : public SteppedRun {
 public:
  template <typename... Args>
  explicit SteppedRunOf(Args&&... args) : run_(std::forward<Args>(args)...) {}
  bool step() override { return run_.step(); }
  bool finished() const override { return run_.finished(); }
  void cancel() override { run_.cancel(); }
  Progress progress() const override { return run_.progress(); }
  SolveResult result() const override { return run_.result(); }

 private:
  Run run_;
};

}  // namespace

PlanningSession::PlanningSession(const std::string& problem_text, const SolveOptions& options) : options_(options) {
  ParsedProblem parsed = parse_problem_text(problem_text);
  warnings_ = std::move(parsed.warnings);
  prepared_ = std::make_unique<PreparedProblem>(prepare_problem(std::move(parsed.problem), options));
  const PreparedProblem& p = *prepared_;
  // "auto" plans one problem per micro-batch size, and search.rank_by
  // "simulated" ranks the best plans of a whole run: both run in one go, as
  // exact does, reporting progress from inside the step.
  if (options.method != Method::memetic || p.problem.search.micro_batch_auto ||
      p.problem.search.rank_by != RankBy::analytic)
    return;
  if (p.problem.search.parallelism == Parallelism::hybrid)
    memetic_ = std::make_unique<SteppedRunOf<HybridRun>>(p.problem, p.model, p.problem.search);
  else
    memetic_ = std::make_unique<SteppedRunOf<MemeticRun>>(p.model, p.problem.search);
}

PlanningSession::~PlanningSession() = default;

bool PlanningSession::step(double budget_ms, const ProgressCallback& report) {
  if (finished_) return true;
  if (!memetic_) {
    if (prepared_->problem.search.rank_by != RankBy::analytic) {
      ranked_ = solve_ranked(*prepared_, options_, report);
      result_ = ranked_->candidates[static_cast<std::size_t>(ranked_->chosen)].candidate.result;
    } else {
      result_ = run_method(*prepared_, options_, report);
    }
    finished_ = true;
    return true;
  }
  Stopwatch slice;
  do {
    if (!memetic_->step()) break;
  } while (slice.elapsed_ms() < budget_ms);
  finished_ = memetic_->finished();
  return finished_;
}

void PlanningSession::cancel() {
  if (memetic_) memetic_->cancel();
  finished_ = true;
}

SolveResult PlanningSession::current_result() const {
  if (result_) return *result_;
  if (!memetic_) throw PlanningError("cancelled before the method ran");
  // The run's own clock: from building its population to its last generation
  // (or now, while it runs), as solve_request times it; not the caller's
  // later calls for the result.
  return memetic_->result();
}

nlohmann::ordered_json PlanningSession::progress_json() const {
  Progress p;
  if (memetic_) {
    p = memetic_->progress();
  } else if (result_) {
    p.evaluations = result_->evaluations;
    p.elapsed_ms = result_->elapsed_ms;
    p.has_plan = true;
    p.best_plan = result_->plan;
    p.best_layout = result_->layout;
    p.best_cost = result_->cost;
    if (result_->method == "exact") p.nodes = result_->nodes;
  }
  nlohmann::ordered_json out = progress_to_json(p, prepared_->problem);
  out["done"] = finished_;
  return out;
}

nlohmann::ordered_json PlanningSession::result_json() const {
  if (ranked_) return ranked_result_to_json(*prepared_, *ranked_, warnings_);
  return solve_result_to_json(*prepared_, current_result(), warnings_);
}

}  // namespace geotrain

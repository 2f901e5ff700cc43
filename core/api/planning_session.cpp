#include "api/planning_session.hpp"

#include "api/api.hpp"
#include "api/engine_price.hpp"
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

std::unique_ptr<SteppedRun> memetic_run(const PreparedProblem& p) {
  if (p.problem.search.parallelism == Parallelism::hybrid)
    return std::make_unique<SteppedRunOf<HybridRun>>(p.problem, p.model, p.problem.search);
  return std::make_unique<SteppedRunOf<MemeticRun>>(p.model, p.problem.search);
}

}  // namespace

PlanningSession::PlanningSession(const std::string& problem_text, const SolveOptions& options) : options_(options) {
  ParsedProblem parsed = parse_problem_text(problem_text);
  warnings_ = std::move(parsed.warnings);
  prepared_ = std::make_unique<PreparedProblem>(prepare_problem(std::move(parsed.problem), options));
  const PreparedProblem& p = *prepared_;
  // "auto" plans one problem per micro-batch size, replicas one per pool, and
  // search.rank_by "simulated" ranks the best plans of a whole run: they run
  // in one go, as exact does, reporting progress from inside the step.
  const bool replicas = p.problem.search.replicas != 1 || p.problem.search.replicas_auto;
  if (options.method != Method::memetic || p.problem.search.micro_batch_auto || replicas ||
      p.problem.search.rank_by != RankBy::analytic)
    return;
  memetic_ = memetic_run(p);
  compare_ = p.problem.search.engine != Engine::any && engine_restricts(p.problem);
}

bool PlanningSession::step_once() {
  if (!memetic_->finished()) {
    memetic_->step();
    return true;
  }
  if (!compare_) return false;
  if (!free_run_) {
    check_engine_plan(prepared_->problem, memetic_->result());
    if (memetic_->result().stop_reason == "cancelled") return false;
    free_ = std::make_unique<PreparedProblem>(unconstrained_problem(*prepared_, options_));
    free_run_ = memetic_run(*free_);
    return true;
  }
  if (free_run_->finished()) return false;
  free_run_->step();
  return true;
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
  bool more = true;
  do more = step_once();
  while (more && slice.elapsed_ms() < budget_ms);
  finished_ = !more;
  return finished_;
}

void PlanningSession::cancel() {
  if (memetic_) memetic_->cancel();
  if (free_run_) free_run_->cancel();
  finished_ = true;
}

SolveResult PlanningSession::current_result() const {
  if (result_) return *result_;
  if (!memetic_) throw PlanningError("cancelled before the method ran");
  // The run's own clock: from building its population to its last generation
  // (or now, while it runs), as solve_request times it; not the caller's
  // later calls for the result.
  SolveResult r = memetic_->result();
  const Problem& problem = prepared_->problem;
  if (problem.search.engine == Engine::any) return r;
  if (!compare_) {
    SolveResult same = r;
    return with_unconstrained(std::move(r), std::move(same), problem);
  }
  if (!free_run_) return r;
  return with_unconstrained(std::move(r), free_run_->result(), problem);
}

nlohmann::ordered_json PlanningSession::progress_json() const {
  Progress p;
  if (free_run_) {
    const SolveResult engine_result = memetic_->result();
    Progress inner = free_run_->progress();
    unconstrained_progress([&](const Progress& shown) { p = shown; return true; }, engine_result)(inner);
  } else if (memetic_) {
    p = memetic_->progress();
  } else if (result_) {
    p.evaluations = result_->evaluations;
    p.elapsed_ms = result_->elapsed_ms;
    p.has_plan = true;
    p.best_plan = result_->plan;
    p.best_layout = result_->layout;
    p.best_replicas = result_->replicas;
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

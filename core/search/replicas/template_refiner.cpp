#include "search/replicas/template_refiner.hpp"

#include <algorithm>
#include <numeric>

#include "search/replicas/engine_replicas.hpp"
#include "search/replicas/micro_batch_shares.hpp"

namespace geotrain {

namespace {

bool better(const PlanCost& a, const PlanCost& b) {
  if (a.feasible != b.feasible) return a.feasible;
  return a.objective < b.objective;
}

std::vector<PipelinePace> paces_of(const ReplicaBreakdown& b, int replicas, int stages) {
  std::vector<PipelinePace> paces(static_cast<std::size_t>(replicas));
  for (int r = 0; r < replicas; ++r)
    for (int q = 0; q < stages; ++q) {
      PipelinePace& p = paces[static_cast<std::size_t>(r)];
      const double tau = b.stage_s[static_cast<std::size_t>(r * stages + q)];
      p.sum_tau += tau;
      p.max_tau = std::max(p.max_tau, tau);
    }
  return paces;
}

// Tensor degrees a merged group of `a` and `b` GPUs may take: dividing both
// (each shard inside one of the merged groups' runs of GPUs), and giving data
// shards that divide u. Largest first.
std::vector<int> merged_degrees(const GroupStage& a, const GroupStage& b, std::int64_t u) {
  std::vector<int> out;
  const int size = a.size() + b.size();
  if (size > kMaxGroupGpus) return out;
  for (int t = std::min({a.size(), b.size(), kMaxTensorParallel}); t >= 1; --t)
    if (a.size() % t == 0 && b.size() % t == 0 && u % (size / t) == 0) out.push_back(t);
  return out;
}

// The valid degree nearest `wanted` (the larger of two as near).
int nearest(const std::vector<int>& degrees, int wanted) {
  int best = degrees.front();
  for (int t : degrees)
    if (std::abs(t - wanted) < std::abs(best - wanted) || (std::abs(t - wanted) == std::abs(best - wanted) && t > best))
      best = t;
  return best;
}

}  // namespace

TemplateRefiner::TemplateRefiner(const Problem& problem, const CostModel& objective,
                                 std::shared_ptr<const LinkTable> links, ReplicaPlan plan)
    : problem_(problem),
      objective_(objective),
      fixed_shares_(plan.size() > 1 && engine_joins_replicas(problem.search.engine)),
      links_(std::move(links)) {
  rebuild(std::move(plan));
}

bool TemplateRefiner::allowed(const ReplicaPlan& plan) const {
  return engine_replica_faults(problem_.search.engine, problem_, plan).empty();
}

void TemplateRefiner::rebuild(ReplicaPlan plan) {
  plan_ = std::move(plan);
  model_ = std::make_unique<ReplicaPlanModel>(problem_, plan_, objective_, links_);
}

PlanCost TemplateRefiner::evaluate() {
  ++evaluations_;
  return model_->model.evaluate(model_->view());
}

void TemplateRefiner::rebalance() {
  if (fixed_shares_) return;
  const ReplicaPlanView view = model_->view();
  const ReplicaBreakdown b = model_->model.breakdown(view);
  model_->micro_batches = balance_micro_batches(paces_of(b, view.replicas, view.stages), problem_.model.micro_batches());
}

ReplicaPlan TemplateRefiner::plan() const {
  ReplicaPlan out = plan_;
  for (std::size_t r = 0; r < out.size(); ++r) {
    out[r].micro_batches = model_->micro_batches[r];
    for (std::size_t q = 0; q < out[r].stages.size(); ++q) out[r].stages[q].layers = model_->layers[q];
  }
  return out;
}

PlanCost TemplateRefiner::run(int passes, bool merges) {
  rebalance();
  cost_ = evaluate();
  for (int pass = 0; pass < passes; ++pass) {
    bool improved = false;
    for (std::size_t q = 0; q + 1 < model_->layers.size(); ++q)
      for (int direction : {+1, -1}) improved = try_shift(q, direction) || improved;
    if (merges) improved = try_merges() || improved;
    improved = nudge_shares() || improved;
    if (!improved) break;
  }
  return cost_;
}

bool TemplateRefiner::try_shift(std::size_t q, int direction) {
  std::vector<int>& layers = model_->layers;
  int& from = direction > 0 ? layers[q] : layers[q + 1];
  int& to = direction > 0 ? layers[q + 1] : layers[q];
  if (from <= 1) return false;
  const std::vector<std::int64_t> shares = model_->micro_batches;
  --from, ++to;
  rebalance();
  const PlanCost cost = evaluate();
  if (better(cost, cost_)) return cost_ = cost, true;
  ++from, --to;
  model_->micro_batches = shares;
  return false;
}

// Every neighbouring pair, every tensor degree the merged groups may take;
// the best merge that improves is kept (then the sweep goes on).
bool TemplateRefiner::try_merges() {
  bool improved = false;
  for (std::size_t q = 0; q + 1 < model_->layers.size(); ++q) {
    const ReplicaPlan current = plan();
    std::vector<std::vector<int>> degrees;
    std::vector<int> wanted;
    bool possible = true;
    for (const Replica& r : current) {
      const GroupStage &a = r.stages[q], &b = r.stages[q + 1];
      const bool one_site = links_->site_of(a.gpus[0]) == links_->site_of(b.gpus[0]);
      degrees.push_back(one_site ? merged_degrees(a, b, problem_.model.micro_batch_size) : std::vector<int>{});
      if (degrees.back().empty()) possible = false;
      wanted.insert(wanted.end(), degrees.back().begin(), degrees.back().end());
    }
    if (!possible) continue;
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    std::optional<ReplicaPlan> best;
    PlanCost best_cost = cost_;
    for (int t : wanted) {
      ReplicaPlan merged = current;
      for (std::size_t r = 0; r < merged.size(); ++r) {
        std::vector<GroupStage>& stages = merged[r].stages;
        GroupStage joined{stages[q].gpus, nearest(degrees[r], t), stages[q].layers + stages[q + 1].layers};
        joined.gpus.insert(joined.gpus.end(), stages[q + 1].gpus.begin(), stages[q + 1].gpus.end());
        stages[q] = std::move(joined);
        stages.erase(stages.begin() + static_cast<long>(q) + 1);
      }
      if (!allowed(merged)) continue;
      rebuild(merged);
      rebalance();
      const PlanCost cost = evaluate();
      if (better(cost, best_cost)) best = plan(), best_cost = cost;
    }
    if (best) {
      rebuild(*best);
      for (std::size_t r = 0; r < best->size(); ++r) model_->micro_batches[r] = (*best)[r].micro_batches;
      cost_ = best_cost;
      improved = true;
    } else {
      rebuild(current);
      for (std::size_t r = 0; r < current.size(); ++r) model_->micro_batches[r] = current[r].micro_batches;
    }
  }
  return improved;
}

bool TemplateRefiner::nudge_shares() {
  bool improved = false;
  if (fixed_shares_) return improved;
  std::vector<std::int64_t>& m = model_->micro_batches;
  for (std::size_t a = 0; a < m.size(); ++a)
    for (std::size_t b = 0; b < m.size(); ++b) {
      if (a == b || m[a] <= 1) continue;
      --m[a], ++m[b];
      const PlanCost cost = evaluate();
      if (better(cost, cost_)) cost_ = cost, improved = true;
      else ++m[a], --m[b];
    }
  return improved;
}

}  // namespace geotrain

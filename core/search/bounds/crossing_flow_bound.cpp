#include "search/bounds/crossing_flow_bound.hpp"

#include <algorithm>
#include <cmath>

namespace geotrain {

namespace {

using bottleneck_detail::kSlack;
using bottleneck_detail::layers_within;

constexpr double kRounding = 1e-9;  // relative slack on sums of many terms

// A role's neighbours: none (the first or last stage), in its own cluster, in another.
constexpr int kNone = 0, kIntra = 1, kCross = 2;
int role_type(int before_kind, int after_kind) { return before_kind * 3 + after_kind; }
// What a cluster's chosen roles add up to: holds the first stage, the last,
// is entered from another cluster, is left for another, has a stage whose
// predecessor is in it, has a run's head (a stage whose predecessor is not in
// it but whose successor is). Any role sets one of them: used = not 0.
constexpr int kFirst = 1, kLast = 2, kEntered = 4, kLeft = 8, kIntraBefore = 16, kRunHead = 32, kStates = 64;
constexpr int kUnusedGpu = 15;  // backtracking mark: the GPU takes no role

// Every cluster a plan uses is entered from another one unless it holds the
// first stage, and left for another unless it holds the last. A stage whose
// predecessor is in the cluster lies on a run of two or more stages there,
// and that run's first stage has its successor in the cluster: so a cycle of
// stages inside one cluster, joined to nothing, is not a plan's.
bool complete_state(int s) {
  return s == 0 || ((s & (kFirst | kEntered)) && (s & (kLast | kLeft)) && (!(s & kIntraBefore) || (s & kRunHead)));
}

}  // namespace

CrossingFlow::CrossingFlow(const BottleneckTables& t, const CostModel& model)
    : t_(t), n_(t.num_gpus), clusters_(t.num_clusters) {
  const int C = clusters_;
  usable_ = n_ >= 2 && C <= 64 && static_cast<double>(n_) * (C + 1) * (C + 1) <= double(1 << 18);
  if (!usable_) return;
  send1_s_.assign(static_cast<std::size_t>(n_) * C, INFINITY);
  send2_s_.assign(send1_s_.size(), INFINITY);
  for (int g = 0; g < n_; ++g)
    for (int h = 0; h < n_; ++h) {
      if (h == g) continue;
      const std::size_t i = static_cast<std::size_t>(g) * C + t.cluster_of[h];
      const double s = model.send_s(g, h);
      if (s < send1_s_[i]) send2_s_[i] = send1_s_[i], send1_s_[i] = s;
      else send2_s_[i] = std::min(send2_s_[i], s);
    }
  lambda_.assign(static_cast<std::size_t>(C) * C, 0.0);
  gradient_.assign(lambda_.size(), 0.0);
  first_role_.assign(n_ + 1, 0);
  members_.assign(C, {});
  for (int g = 0; g < n_; ++g) members_[t.cluster_of[g]].push_back(g);
  type_score_.assign(static_cast<std::size_t>(n_) * 9, -INFINITY);
  type_role_.assign(type_score_.size(), -1);
  from_.assign(static_cast<std::size_t>(n_) * kStates, 0);
  entry_bonus_.assign(static_cast<std::size_t>(C) * (C + 1), 0.0);
  used_penalty_.assign(C, 0.0);
  cluster_used_.assign(C, 0);
}

// Every role each GPU can take at x with at least one layer.
void CrossingFlow::list_roles(double x_s) {
  roles_.clear();
  const int C = clusters_;
  if (t_.most_stages < 2) {
    std::fill(first_role_.begin(), first_role_.end(), 0);
    return;
  }
  const double x = x_s * (1 + kSlack), rho = t_.head_in_layers;
  const int* mid_cap = &t_.cap_middle[static_cast<std::size_t>(2) * n_];  // row 2: every plan of >= 2 stages
  const int* last_cap = &t_.cap_last[static_cast<std::size_t>(2) * n_];
  for (int g = 0; g < n_; ++g) {
    first_role_[g] = static_cast<int>(roles_.size());
    const double ts = t_.layer_s[g];
    const double* s1 = &send1_s_[static_cast<std::size_t>(g) * C];
    const double* s2 = &send2_s_[static_cast<std::size_t>(g) * C];
    for (int a = -1; a < C; ++a)
      for (int b = -1; b < C; ++b) {
        if (a < 0 && b < 0) continue;  // one stage alone: not a plan of >= 2
        const bool last = b < 0;
        // Two neighbours in one cluster are two GPUs of it.
        const double sends_s = a >= 0 && b >= 0 ? (a == b ? s1[a] + s2[a] : s1[a] + s1[b]) : (a >= 0 ? s1[a] : s1[b]);
        if (!(sends_s < INFINITY)) continue;
        const int layers = layers_within(x - sends_s, ts, last ? rho : 0, last ? last_cap[g] : mid_cap[g]);
        if (layers < 1) continue;
        const int c = t_.cluster_of[g];
        const int type = role_type(a < 0 ? kNone : a == c ? kIntra : kCross, b < 0 ? kNone : b == c ? kIntra : kCross);
        roles_.push_back({g, a, b, layers, sends_s + (last ? rho * ts : 0.0), type});
      }
  }
  first_role_[n_] = static_cast<int>(roles_.size());
}

// lambda_{c b} for a successor in b, minus lambda_{a c} for a predecessor in a.
double CrossingFlow::multiplier(const Role& r) const {
  const int c = t_.cluster_of[r.gpu], C = clusters_;
  double m = 0;
  if (r.after >= 0) m += lambda_[static_cast<std::size_t>(c) * C + r.after];
  if (r.before >= 0) m -= lambda_[static_cast<std::size_t>(r.before) * C + c];
  return m;
}

void CrossingFlow::add_flows(const Role& r) {
  const int c = t_.cluster_of[r.gpu], C = clusters_;
  if (r.after >= 0) gradient_[static_cast<std::size_t>(c) * C + r.after] += 1;
  if (r.before >= 0) gradient_[static_cast<std::size_t>(r.before) * C + c] -= 1;
}

// The best score of a role set: every GPU one role or none, every used
// cluster entered and left as a plan's are, one first and one last stage in
// all. A role scores its layers (sum_mode: minus its cost, see least_sum)
// plus its multipliers. Fills gradient_ (F_ab - B_ab of the best set) and
// layers (what it holds); abs_sum bounds the size of the terms summed.
double CrossingFlow::best_score(bool sum_mode, double nu, double& abs_sum, int& layers) {
  abs_sum = 0;
  std::fill(type_score_.begin(), type_score_.end(), -INFINITY);
  cut_terms();
  const int C = clusters_;
  for (int g = 0; g < n_; ++g) {
    const double net = t_.layer_s[g] - nu;  // a layer's cost net of its multiplier
    const double* entry_bonus = &entry_bonus_[static_cast<std::size_t>(t_.cluster_of[g]) * (C + 1) + 1];
    for (int i = first_role_[g]; i < first_role_[g + 1]; ++i) {
      const Role& r = roles_[i];
      const double v = (sum_mode ? -(r.fixed_s + multiplier(r) + (net < 0 ? r.layers * net : net))
                                 : r.layers + multiplier(r)) + entry_bonus[r.before];
      abs_sum += std::abs(v) + (sum_mode ? r.fixed_s + r.layers * t_.layer_s[g] : r.layers);
      const std::size_t k = static_cast<std::size_t>(g) * 9 + r.type;
      if (v > type_score_[k]) type_score_[k] = v, type_role_[k] = i;
    }
    work_ += first_role_[g + 1] - first_role_[g] + 1;
  }
  // Per cluster: the best score of its GPUs' roles for every state.
  double ends[4] = {0, -INFINITY, -INFINITY, -INFINITY};  // (first placed, last placed) over clusters so far
  std::vector<int>& end_state = end_state_;                // per cluster and ends-combination: its state
  end_state.assign(static_cast<std::size_t>(clusters_) * 4, -1);
  std::vector<int>& ends_from = ends_from_;
  ends_from.assign(static_cast<std::size_t>(clusters_) * 4, -1);
  for (int c = 0; c < clusters_; ++c) {
    const std::vector<int>& members = members_[c];
    double value[kStates];
    std::fill(value, value + kStates, -INFINITY);
    value[0] = 0;
    for (std::size_t pos = 0; pos < members.size(); ++pos) {
      const int g = members[pos];
      double next[kStates];
      int* from = &from_[static_cast<std::size_t>(g) * kStates];
      for (int s = 0; s < kStates; ++s) next[s] = value[s], from[s] = s * 16 + kUnusedGpu;
      work_ += kStates;
      for (int type = 1; type < 9; ++type) {
        const double score = type_score_[static_cast<std::size_t>(g) * 9 + type];
        if (score == -INFINITY) continue;
        const int before = type / 3, after = type % 3;
        const int adds = (before == kNone ? kFirst : 0) | (after == kNone ? kLast : 0) |
                         (before == kCross ? kEntered : 0) | (after == kCross ? kLeft : 0) |
                         (before == kIntra ? kIntraBefore : 0) | (before != kIntra && after == kIntra ? kRunHead : 0);
        for (int s = 0; s < kStates; ++s) {
          if (value[s] == -INFINITY || (before == kNone && (s & kFirst)) || (after == kNone && (s & kLast))) continue;
          const int to = s | adds;
          if (value[s] + score > next[to]) next[to] = value[s] + score, from[to] = s * 16 + type;
        }
      }
      std::copy(next, next + kStates, value);
    }
    // Fold into the ends: at most one first and one last stage in all.
    double folded[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
    for (int s = 0; s < kStates; ++s) {
      if (value[s] == -INFINITY || !complete_state(s)) continue;
      const int mine = (s & kFirst ? 2 : 0) | (s & kLast ? 1 : 0);
      const double v = value[s] - (s != 0 ? used_penalty_[c] : 0.0);
      for (int e = 0; e < 4; ++e) {
        if (ends[e] == -INFINITY || (e & mine)) continue;
        const int to = e | mine;
        if (ends[e] + v > folded[to])
          folded[to] = ends[e] + v, end_state[c * 4 + to] = s, ends_from[c * 4 + to] = e;
      }
    }
    std::copy(folded, folded + 4, ends);
  }
  std::fill(gradient_.begin(), gradient_.end(), 0.0);
  layers = 0;
  if (ends[3] == -INFINITY) return -INFINITY;  // no first and last stage on two GPUs
  // Back through the clusters and their GPUs: the chosen roles and their flows.
  chosen_.clear();
  int e = 3;
  for (int c = clusters_ - 1; c >= 0; --c) {
    int s = end_state[c * 4 + e];
    e = ends_from[c * 4 + e];
    cluster_used_[c] = s != 0;
    abs_sum += used_penalty_[c];
    const std::vector<int>& members = members_[c];
    for (std::size_t pos = members.size(); pos-- > 0;) {
      const int g = members[pos], step = from_[static_cast<std::size_t>(g) * kStates + s];
      s = step / 16;
      if (step % 16 == kUnusedGpu) continue;
      const Role& r = roles_[type_role_[static_cast<std::size_t>(g) * 9 + step % 16]];
      add_flows(r);
      chosen_.push_back(type_role_[static_cast<std::size_t>(g) * 9 + step % 16]);
      layers += sum_mode && t_.layer_s[g] - nu < 0 ? r.layers : (sum_mode ? 1 : r.layers);
    }
  }
  separate_cuts();
  return ends[3];
}

// Each cut (S, c) says: if cluster c of S is used, S holds the first stage
// or is entered from outside. Its multiplier mu >= 0 adds mu to every role in
// S entered from outside S (and every first stage in S) and takes mu from c
// when used; on a real plan the sum of these is >= 0.
void CrossingFlow::cut_terms() {
  const int C = clusters_;
  std::fill(entry_bonus_.begin(), entry_bonus_.end(), 0.0);
  std::fill(used_penalty_.begin(), used_penalty_.end(), 0.0);
  for (const Cut& cut : cuts_) {
    if (cut.mu == 0) continue;
    used_penalty_[cut.used] += cut.mu;
    for (int c = 0; c < C; ++c) {
      if (!(cut.clusters >> c & 1)) continue;
      double* row = &entry_bonus_[static_cast<std::size_t>(c) * (C + 1)];
      row[0] += cut.mu;  // a first stage in S
      for (int a = 0; a < C; ++a)
        if (!(cut.clusters >> a & 1)) row[a + 1] += cut.mu;
    }
  }
}

// The cuts' subgradients for the chosen roles, and new cuts for the groups
// of clusters the chosen roles join that hold no first stage (subtours).
void CrossingFlow::separate_cuts() {
  const int C = clusters_;
  if (C > 64) return;
  std::vector<int>& parent = cut_parent_;
  parent.resize(C);
  for (int c = 0; c < C; ++c) parent[c] = c;
  const auto root = [&](int c) {
    while (parent[c] != c) c = parent[c] = parent[parent[c]];
    return c;
  };
  int first_cluster = -1;
  for (const int i : chosen_) {
    const Role& r = roles_[i];
    const int c = t_.cluster_of[r.gpu];
    if (r.before < 0) first_cluster = c;
    if (r.before >= 0) parent[root(r.before)] = root(c);
    if (r.after >= 0) parent[root(r.after)] = root(c);
  }
  for (Cut& cut : cuts_) {
    cut.gradient = -static_cast<double>(cluster_used_[cut.used]);
    for (const int i : chosen_) {
      const Role& r = roles_[i];
      const int c = t_.cluster_of[r.gpu];
      if ((cut.clusters >> c & 1) && (r.before < 0 || !(cut.clusters >> r.before & 1))) cut.gradient += 1;
    }
  }
  if (first_cluster < 0 || cuts_.size() >= kMaxCuts) return;
  for (int c = 0; c < C; ++c) {
    if (!cluster_used_[c] || root(c) == root(first_cluster) || root(c) != c) continue;
    std::uint64_t group = 0;
    int used = -1;
    for (int d = 0; d < C; ++d)
      if (root(d) == c) {
        group |= std::uint64_t{1} << d;
        if (used < 0 && cluster_used_[d]) used = d;
      }
    bool known = false;
    for (const Cut& cut : cuts_) known |= cut.clusters == group && cut.used == used;
    if (!known && cuts_.size() < kMaxCuts) cuts_.push_back({group, used, 0.0, -1.0});
  }
}

// One subgradient step for the cuts' multipliers (kept >= 0); returns the
// squared norm of the part that moves.
double CrossingFlow::cut_norm2() const {
  double norm2 = 0;
  for (const Cut& cut : cuts_)
    if (cut.mu > 0 || cut.gradient < 0) norm2 += cut.gradient * cut.gradient;
  return norm2;
}
void CrossingFlow::move_cuts(double move) {
  for (Cut& cut : cuts_) cut.mu = std::max(0.0, cut.mu - move * cut.gradient);
}

bool CrossingFlow::proves_no_plan(double x_s, int steps) {
  if (!usable_) return false;
  list_roles(x_s);
  std::fill(lambda_.begin(), lambda_.end(), 0.0);
  for (Cut& cut : cuts_) cut.mu = 0;
  sum_warm_ = false;
  const double L = t_.num_layers, target = L - 0.5;
  double theta = 1.0, best = INFINITY;
  int stale = 0;
  for (int step = 0; step < steps && !deadline_.passed(); ++step) {
    double abs_sum = 0;
    int layers = 0;
    const double value = best_score(false, 0.0, abs_sum, layers);
    if (value < L - kRounding * (abs_sum + L)) return true;  // every real plan scores >= L here
    double norm2 = cut_norm2();
    for (const double g : gradient_) norm2 += g * g;
    if (norm2 == 0) return false;  // the relaxation's best keeps every count equal: no progress possible
    if (value < best - 1e-9) best = value, stale = 0;
    else if (++stale >= 30) theta *= 0.7, stale = 0;
    const double move = theta * (value - target) / norm2;
    for (std::size_t i = 0; i < lambda_.size(); ++i) lambda_[i] -= move * gradient_[i];
    move_cuts(move);
  }
  return false;
}

// min over role sets of sum (layers t + fixed) + sum lambda (F - B) + nu (L - sum layers),
// where each role holds 1 layer, or all it can when a layer is worth more
// than it costs: nu L minus the best score of minus that cost.
double CrossingFlow::least_sum(double nu, double& abs_sum, int& layers) {
  const double score = best_score(true, nu, abs_sum, layers);
  abs_sum += std::abs(nu * t_.num_layers);
  return score == -INFINITY ? INFINITY : nu * t_.num_layers - score;
}

double CrossingFlow::least_tau_sum_s(double x_s, int steps, double target_s) {
  if (!usable_) return 0;
  list_roles(x_s);
  if (!sum_warm_) {  // multipliers left by proves_no_plan count layers, not seconds: start afresh
    std::fill(lambda_.begin(), lambda_.end(), 0.0);
    for (Cut& cut : cuts_) cut.mu = 0;
    nu_ = *std::min_element(t_.layer_s.begin(), t_.layer_s.end());
    sum_warm_ = true;  // later calls start from where this one ends
  }
  const double L = t_.num_layers;
  double theta = 1.0, best = -INFINITY;
  int stale = 0;
  for (int step = 0; step < steps && !deadline_.passed(); ++step) {
    double abs_sum = 0;
    int layers = 0;
    const double value = least_sum(nu_, abs_sum, layers);
    if (!(value < INFINITY)) return INFINITY;  // no first and last stage: no plan at x
    const double bound = value - kRounding * abs_sum;
    if (bound > best + 1e-12 * std::abs(bound)) best = bound, stale = 0;
    else if (++stale >= 8) theta *= 0.5, stale = 0;
    if (best >= target_s) break;
    const double layer_gap = L - layers;
    double norm2 = layer_gap * layer_gap + cut_norm2();
    for (const double g : gradient_) norm2 += g * g;
    if (norm2 == 0) break;  // a role set that satisfies every count: the relaxation's optimum
    const double move = theta * (target_s - value) / norm2;
    for (std::size_t i = 0; i < lambda_.size(); ++i) lambda_[i] += move * gradient_[i];
    nu_ += move * layer_gap;
    move_cuts(move);
  }
  return best;
}

double crossing_bottleneck_floor_s(CrossingFlow& flow, double floor_s, double ceiling_s, std::int64_t max_work,
                                   const Deadline& deadline, int steps) {
  double lo = floor_s, hi = ceiling_s;
  if (!flow.usable() || !(lo > 0) || !std::isfinite(hi) || !(hi > lo)) return floor_s;
  flow.set_deadline(deadline);
  const std::int64_t start = flow.work();
  for (int test = 0; test < 40 && hi - lo > 1e-4 * hi; ++test) {
    if (flow.work() - start >= max_work || deadline.passed()) break;
    const double mid = 0.5 * (lo + hi);
    (flow.proves_no_plan(mid, steps) ? lo : hi) = mid;
  }
  return lo;
}

double crossing_time_floor_s(CrossingFlow& flow, const BottleneckTables& t, const CostModel& model, double floor_s,
                             double ceiling_s, std::int64_t max_work, const Deadline& deadline, int steps,
                             int intervals) {
  const double later = model.micro_batches() - 1;
  if (!flow.usable() || !(later > 0) || !(floor_s > 0) || !std::isfinite(ceiling_s) || t.most_stages < 2) return 0;
  flow.set_deadline(deadline);
  const double fastest_s = *std::min_element(t.layer_s.begin(), t.layer_s.end());
  // Every plan of >= 2 stages sums at least its compute and one round trip.
  const double least_sum_s = (t.num_layers + t.head_in_layers) * fastest_s + t.min_round_trip_s;
  const double top_s = (ceiling_s - least_sum_s) / later;  // a plan slower than this has T_iter > ceiling_s
  if (!(top_s > floor_s)) return 0;
  const std::int64_t start = flow.work();
  double floor_time_s = ceiling_s;
  // Neighbouring makespans have nearly the same multipliers, so each test
  // starts from the last one's: fine intervals converge faster than coarse.
  for (int i = intervals - 1; i >= 0; --i) {
    if (flow.work() - start >= max_work || deadline.passed()) return 0;  // intervals left unbounded
    const double x_lo = floor_s + (top_s - floor_s) * i / intervals;
    const double x_hi = floor_s + (top_s - floor_s) * (i + 1) / intervals;
    const double target_s = ceiling_s - later * x_lo;
    const double sum_s = std::max(least_sum_s, flow.least_tau_sum_s(x_hi, steps, target_s));
    floor_time_s = std::min(floor_time_s, sum_s + later * x_lo);
  }
  return floor_time_s;
}

}  // namespace geotrain

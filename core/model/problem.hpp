#pragma once
// A planning problem: the model, the GPU pool, the network, the objective and
// the search settings, exactly as a problem file describes them.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/engine.hpp"
#include "model/gpu.hpp"
#include "model/model_config.hpp"
#include "model/network.hpp"

namespace geotrain {

// The weights of objectives.md: time, energy, carbon and money, each over its reference.
struct ObjectiveWeights {
  double time = 1, energy = 0, carbon = 0, cost = 0;
};

struct Objective {
  double lambda = 1.0;              // weight of time; 1 - lambda weighs energy
  // When given, replaces lambda (objectives.md); lambda alone is {lambda, 1 - lambda, 0, 0}.
  std::optional<ObjectiveWeights> weights;
  std::optional<double> t_ref_ms;   // normalisers; filled from a baseline when absent
  std::optional<double> e_ref_j;
  std::optional<double> c_ref_g;    // grams CO2e
  std::optional<double> m_ref;      // money, in the unit of the prices

  ObjectiveWeights effective_weights() const {
    return weights ? *weights : ObjectiveWeights{lambda, 1.0 - lambda, 0, 0};
  }
};

// Where a site's energy comes from and what it costs (objectives.md).
struct SiteFigures {
  double carbon_g_per_kwh = 0;  // grid carbon intensity
  double pue = 1;               // facility energy over IT energy
  double price_per_kwh = 0;     // electricity
};

struct Training {
  std::optional<std::int64_t> iterations;  // the run's length, for run totals
  // replicas.md: replicas average their gradients every sync_every iterations
  // (H; 1 is synchronous data parallelism, more is local SGD, whose
  // convergence the model does not predict), sending sync_compression (c) of
  // the gradient bytes between replicas.
  std::int64_t sync_every = 1;
  double sync_compression = 1;
};

// The plan space: the paper's one GPU per stage, or stage groups with tensor
// and data parallelism inside a stage (stage-groups.md).
enum class Parallelism { pipeline, hybrid };

// How the planner picks among its best candidate plans (issue 25): by the
// analytic objective (the paper's, the default), or by the objective with the
// event-level simulation's iteration time (blocking or overlapped sends) in
// place of the formula's (docs/simulation.md, "Ranking by the simulation").
enum class RankBy { analytic, simulated, simulated_overlapped };

// The memetic algorithm's settings; defaults are the paper's (Sect. 6.1).
// The memetic run's additions for pools of more than 16 devices (issue 23;
// core/MEMETIC.md, "Moves at the scale of sites and stages"), all on by
// default. Not in problem files: the switches exist for the ablation table.
struct ScaleMoves {
  bool stage_moves = true;  // balance, merge neighbours, contract the pipeline
  bool site_moves = true;   // gather, drop and add a site
  bool seeds = true;        // exact's first plans, balanced, in the initial population
  bool restarts = true;     // every plan one such move from the best when the run stalls
  bool final_nodes = true;  // the final step gets at least about a second of exact's nodes
  bool final_floor = true;  // the final step searches above exact's bottleneck floor, again while it gains
  bool stall_polish = true;  // the final step also runs at the restarts, its plan joining the population
  bool final_plain = true;   // with final_floor: the final step ends with a search without the floor
};

struct SearchSettings {
  Parallelism parallelism = Parallelism::pipeline;
  // search.engine: plan only what this engine can launch ("any": the whole space).
  Engine engine = Engine::any;
  int population = 200;
  int tournament = 4;
  int elite = 2;
  double local_search_rate = 0.5;
  double crossover_fallback_rate = 0.1;  // p_fall: the paper leaves it unset
  // Alg. 3's boundary shift moves the left stage's last layer right; with
  // shift_both_ways a fair coin picks that or the right stage's first layer
  // moving left (not in the paper; finds optima more often, see MEMETIC.md).
  bool shift_both_ways = false;
  // search.micro_batch_size "auto": also choose u among the divisors of B.
  bool micro_batch_auto = false;
  RankBy rank_by = RankBy::analytic;  // search.rank_by
  // search.replicas (replicas.md): how many data-parallel copies of the
  // pipeline; 1 is one pipeline (the paper's space), "auto" lets the planner
  // choose up to kMaxAutoReplicas.
  int replicas = 1;
  bool replicas_auto = false;
  double time_limit_s = 120;
  int patience = 100;
  int max_generations = 500;
  std::uint64_t seed = 1;
  ScaleMoves scale_moves;
};

struct Problem {
  std::string name;
  std::string description;
  std::string story;  // teaching notes: what to look for in this example
  ModelConfig model;
  std::vector<Gpu> gpus;
  NetworkSpec network;
  Objective objective;
  SearchSettings search;
  std::map<std::string, SiteFigures> sites;  // keyed by gpus[].site ("" is the default site)
  Training training;

  // The figures of a site; the defaults (no carbon, PUE 1, free power) when the file gives none.
  SiteFigures site_figures(const std::string& site) const {
    const auto it = sites.find(site);
    return it == sites.end() ? SiteFigures{} : it->second;
  }
};

// Size limits that keep every method's memory and time bounded.
constexpr int kMaxGpus = 512;
constexpr int kMaxLayers = 1024;
// Stage groups: at most this many GPUs in one group and this tensor degree
// (the largest NVLink domains sold today hold 72 GPUs; 64 keeps rings short).
constexpr int kMaxGroupGpus = 64;
constexpr int kMaxTensorParallel = 64;
// search.replicas "auto" tries at most this many replicas (a ring all-reduce
// over more copies pays 2 (R - 1) latencies per sync; see docs/replicas.md).
constexpr int kMaxAutoReplicas = 64;
// training.sync_every at most (a billion iterations).
constexpr std::int64_t kMaxSyncEvery = 1'000'000'000;

}  // namespace geotrain

#pragma once
// A planning problem: the model, the GPU pool, the network, the objective and
// the search settings, exactly as a problem file describes them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/gpu.hpp"
#include "model/model_config.hpp"
#include "model/network.hpp"

namespace geotrain {

struct Objective {
  double lambda = 1.0;              // weight of time; 1 - lambda weighs energy
  std::optional<double> t_ref_ms;   // normalisers; filled from a baseline when absent
  std::optional<double> e_ref_j;
};

// The plan space: the paper's one GPU per stage, or stage groups with tensor
// and data parallelism inside a stage (stage-groups.md).
enum class Parallelism { pipeline, hybrid };

// The memetic algorithm's settings; defaults are the paper's (Sect. 6.1).
struct SearchSettings {
  Parallelism parallelism = Parallelism::pipeline;
  int population = 200;
  int tournament = 4;
  int elite = 2;
  double local_search_rate = 0.5;
  double crossover_fallback_rate = 0.1;  // p_fall: the paper leaves it unset
  // Alg. 3's boundary shift moves the left stage's last layer right; with
  // shift_both_ways a fair coin picks that or the right stage's first layer
  // moving left (not in the paper; finds optima more often, see MEMETIC.md).
  bool shift_both_ways = false;
  double time_limit_s = 120;
  int patience = 100;
  int max_generations = 500;
  std::uint64_t seed = 1;
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
};

// Size limits that keep every method's memory and time bounded.
constexpr int kMaxGpus = 512;
constexpr int kMaxLayers = 1024;
// Stage groups: at most this many GPUs in one group and this tensor degree
// (the largest NVLink domains sold today hold 72 GPUs; 64 keeps rings short).
constexpr int kMaxGroupGpus = 64;
constexpr int kMaxTensorParallel = 64;

}  // namespace geotrain

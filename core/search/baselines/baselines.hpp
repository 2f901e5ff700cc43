#pragma once
// Baselines on GeoTrain's cost model, in the spirit of the paper's Sect. 6.2.
//
// Each plans at most the model's most_stages() stages (search.engine "torch"
// limits them to M); by default that is no limit.
// uniform        : the first min(N, L) GPUs in file order, layers split evenly
//                  (the first L mod Q stages get one more), no memory repair.
// metis          : every GPU (the L fastest when N > L), ordered by the
//                  nearest-link heuristic below, layers split in proportion to
//                  effective compute and repaired for memory.
// metis-improved : `metis` on every non-empty GPU subset when N <= 7; beyond,
//                  on the full set plus kMetisSampledSubsets random subsets
//                  drawn from a seeded engine. Ranks by iteration time only,
//                  as Metis does (energy is reported, never optimised).
//
// How this differs from the original Metis (Um et al., ATC'24): Metis also
// searches data and tensor parallelism, device groups and micro-batching with
// its own profiled cost model; here, as in the paper, it is cut down to pure
// pipeline parallelism with one GPU per stage, and scored by this cost model.
#include <cstdint>
#include <vector>

#include "model/cost_model.hpp"
#include "search/solve_result.hpp"
#include "search/stopwatch.hpp"

namespace geotrain {

constexpr int kMetisExhaustiveMaxGpus = 7;
constexpr int kMetisSampledSubsets = 1024;

Plan uniform_plan(const CostModel& model);

// Pipeline order for a set of GPUs: start at the one with the most effective
// compute, then repeatedly append the unplaced GPU with the cheapest round trip
// (activation forward plus gradient back) to the last placed one; ties go to
// the faster GPU, then the lower index.
std::vector<int> metis_order(const CostModel& model, std::vector<int> gpus);

// Layers split in proportion to effective compute (largest remainder, at
// least one each), then repaired for memory: layers above a stage's capacity
// move to the stage that would finish them soonest. GPUs that cannot hold a
// single layer are dropped first. Returns the plan even when no repair fits
// (it is then infeasible); empty only when `gpus` is.
Plan metis_plan(const CostModel& model, std::vector<int> gpus);

SolveResult run_uniform(const CostModel& model);
SolveResult run_metis(const CostModel& model);
// Once `deadline` has passed, no further subset is tried (stop_reason
// "time_limit"); the best plan so far is returned.
SolveResult run_metis_improved(const CostModel& model, std::uint64_t seed, const Deadline& deadline = {});

}  // namespace geotrain

#pragma once
// Seeds from the exact solver's first plans (issue 23; core/MEMETIC.md,
// "Moves at the scale of sites and stages"): for every stage count up to
// kGreedyMaxStages the fastest devices in Metis order, and the plan built to
// fit in memory (exact_incumbent.hpp), each as it is and with its layers
// balanced (site_moves.hpp). On a large pool they are the structures a random
// population rarely holds: few stages on the fastest devices, close together.
#include <vector>

#include "search/memetic/chromosome.hpp"

namespace geotrain {

// The seeds that fit in memory, distinct, costed (each evaluation counted in
// `context`), fittest first.
std::vector<Chromosome> exact_seeds(OperatorContext& context);

// Offers `seeds` to a sorted population of at most `capacity` members: each
// one not already in it takes a place (the worst member's, when it is full)
// if it is fitter than that member. The population stays sorted and distinct;
// returns how many seeds entered.
int offer_seeds(std::vector<Chromosome>& population, const std::vector<Chromosome>& seeds, int capacity);

// Restarts: every plan one move at the scale of sites and stages away from
// `best` (site_moves.hpp), each choice taken in turn instead of drawn: the
// layers balanced; each site the plan uses dropped; each site it splits
// gathered; each site given 1, Q / 4 and Q / 2 more of its fastest unused
// devices (added when the plan does not use it, grown when it does); each
// site's stages handed to each other site, as many and half again; the
// Q / 8, Q / 4 and Q / 2 slowest stages (and one) removed. The ones that fit in memory, costed, fittest first. Sites beyond
// the first kSweepSites are left out (a pool of hundreds of one-GPU sites).
constexpr int kSweepSites = 64;
std::vector<Chromosome> sweep_around(Chromosome& best, OperatorContext& context);

}  // namespace geotrain

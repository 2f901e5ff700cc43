#pragma once
// Stage-boundary-aware best-cut crossover (paper, Sect. 5.3, Alg. 2).
#include "search/chromosome.hpp"
#include "search/random.hpp"

namespace geotrain {

// Children of p1 and p2 (whose genes differ): c1 = p1[:b] + p2[b:] and
// c2 = p2[:b] + p1[b:], each at the cut b that makes it fittest. Cuts are the
// union of both parents' stage boundaries; with probability `fallback_rate`
// (p_fall) every cut 1..L-1 instead. A cut whose child reuses a GPU in two
// runs, or does not fit in memory, is skipped. Of equally fit cuts the
// smallest wins. Writes 0, 1 or 2 children (c1 first) into `children`, with
// their costs, and returns how many. Uses the context's stages_*, starts_*,
// stage_in_* and positions scratch; one uniform draw from `rng`. O(Q) per
// candidate cut and O(L) per crossover (decoding the parents and writing
// the two winners).
int boundary_crossover(const Chromosome& p1, const Chromosome& p2, double fallback_rate, Rng& rng,
                       OperatorContext& context, Chromosome* children);

}  // namespace geotrain

#pragma once
// "Where to train": the best plan on each site alone and on every pair of
// sites, each on the problem restricted to those sites' GPUs, with the
// references of the full problem so that every objective compares. Internal
// to the studies (studies.hpp); shapes in core/STUDIES.md.
#include <string>
#include <vector>

#include "model/problem.hpp"
#include "studies/studies.hpp"

namespace geotrain {

// The problem with only the GPUs on `sites` (the set of site names): links,
// site links and site figures that name other GPUs or sites are dropped, so
// every remaining pair resolves to the link it had.
Problem restricted_to_sites(const Problem& problem, const std::vector<std::string>& sites);

// Each site alone, then each unordered pair (i < j), sites in order of first
// appearance in the GPUs; whether some plan fits on each (the reason when
// none does). Throws InputError beyond kMaxWhereSites sites.
std::vector<SiteSubset> site_subsets(const Problem& pinned);

}  // namespace geotrain

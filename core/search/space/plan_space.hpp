#pragma once
// Size of the plan space: f(N, L) = sum_{k=1}^{min(N,L)} C(L-1, k-1) P(N, k)
// (the paper, Sect. 6.5): compositions of L layers into k stages times ordered
// choices of k distinct GPUs.

namespace geotrain {

// As a double: exact up to 2^53, then a close approximation; never overflows
// for the supported sizes (the result may be +inf beyond ~1e308).
double plan_space_size(int num_gpus, int num_layers);

}  // namespace geotrain

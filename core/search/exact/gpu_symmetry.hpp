#pragma once
// Interchangeable GPUs: two GPUs are interchangeable when swapping them in any
// plan leaves its cost unchanged, i.e. they have the same compute, memory and
// power figures and the same link, in both directions, to every other GPU (and
// the same link to each other both ways). Exact search places only the
// lowest-index unused member of a class next, which keeps one plan out of
// every set of plans that differ only by such swaps.
#include <vector>

#include "model/cost_model.hpp"

namespace geotrain {

struct GpuClasses {
  std::vector<int> class_of;              // GPU -> class index
  std::vector<std::vector<int>> members;  // class -> its GPUs, ascending; classes by lowest member
};

// Whether swapping GPUs i and j maps every plan onto one of equal cost.
// Compares the cost model's own figures with ==: they come from the same
// arithmetic on the same inputs, so equal inputs give bit-equal values.
bool interchangeable(const CostModel& model, int i, int j);

// The classes of interchangeable GPUs. Swaps that preserve cost form a group,
// so the relation is an equivalence and comparing each GPU with the lowest
// member of every earlier class is enough. O(N^2 * classes).
GpuClasses interchangeable_gpu_classes(const CostModel& model);

}  // namespace geotrain

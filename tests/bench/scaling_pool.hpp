#pragma once
// The benchmarks' problems: prefixes of examples/scaling-12gpu.json, with the
// number of layers set, as in the paper's Tables 3, 4 and 6.
#include "model/problem.hpp"

namespace geotrain::bench {

Problem scaling_pool(int num_gpus, int num_layers);

}  // namespace geotrain::bench

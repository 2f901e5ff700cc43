#include "scaling_pool.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "model/problem_json.hpp"

namespace geotrain::bench {

Problem scaling_pool(int num_gpus, int num_layers) {
  std::ifstream in(GEOTRAIN_EXAMPLES_DIR "/scaling-12gpu.json");
  std::stringstream text;
  text << in.rdbuf();
  Problem problem = parse_problem_text(text.str()).problem;
  if (num_gpus > static_cast<int>(problem.gpus.size())) throw std::invalid_argument("the scaling pool has 12 GPUs");
  problem.gpus.resize(num_gpus);
  problem.model.num_layers = num_layers;
  return problem;
}

}  // namespace geotrain::bench

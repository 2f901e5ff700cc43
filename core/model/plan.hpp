#pragma once
// A pipeline plan: stages in order, each a distinct GPU holding consecutive layers.
#include <vector>

namespace geotrain {

struct Stage {
  int gpu = 0;     // index into Problem::gpus
  int layers = 0;  // n_q >= 1
};

using Plan = std::vector<Stage>;

}  // namespace geotrain

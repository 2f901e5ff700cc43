#include "search/space/plan_space.hpp"

#include <algorithm>

namespace geotrain {

double plan_space_size(int num_gpus, int num_layers) {
  double total = 0;
  double compositions = 1;  // C(L-1, k-1), starting at k = 1
  double arrangements = 1;  // P(N, k), built up one factor at a time
  for (int k = 1; k <= std::min(num_gpus, num_layers); ++k) {
    arrangements *= num_gpus - k + 1;
    if (k > 1) compositions = compositions * (num_layers - k + 1) / (k - 1);
    total += compositions * arrangements;
  }
  return total;
}

}  // namespace geotrain

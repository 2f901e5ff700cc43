#include "search/exact/exact.hpp"

#include <stdexcept>
#include <string>

namespace geotrain {

void ExactSettings::validate() const {
  if (!(time_limit_s > 0))
    throw std::invalid_argument("exact.time_limit_s: must be > 0, got " + std::to_string(time_limit_s));
  if (crossing_flow_work < 0)
    throw std::invalid_argument("exact.crossing_flow_work: must be >= 0, got " + std::to_string(crossing_flow_work));
  if (max_nodes < 1) throw std::invalid_argument("exact.max_nodes: must be >= 1, got " + std::to_string(max_nodes));
}

}  // namespace geotrain

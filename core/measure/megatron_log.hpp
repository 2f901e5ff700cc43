#pragma once
// Iteration times from a Megatron-LM training log. megatron/training/
// training.py prints, every --log-interval iterations,
//
//   [2025-01-31 10:00:00.123456] iteration      200/   10000 | consumed samples: ...
//     | elapsed time per iteration (ms): 1234.5 | ...
//
// (one line; older versions without the time stamp). The first logged
// interval includes start-up (Megatron logs iteration 1 on purpose "to
// document initialization overhead"), so it is left out when later ones
// exist, and the run's figure is the median of the rest: one slow interval
// (a checkpoint save, an evaluation) does not move it.
#include <string>
#include <vector>

#include "measure/tool_text.hpp"

namespace geotrain::measure {

struct IterationTimes {
  std::vector<double> ms;          // every logged interval, in file order
  std::vector<std::size_t> lines;
  double median_ms = 0;            // of all but the first (of the only one, if one)
  std::size_t used = 0;            // how many the median is over
};

// Throws InputError naming the file and line.
IterationTimes parse_megatron_log(const MeasuredFile& file);

}  // namespace geotrain::measure

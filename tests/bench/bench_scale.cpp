// Search at scale (issue 10) on the generated geo pools: placeholder.
#include <benchmark/benchmark.h>

// geotrain_hard_table: the hard family's tables (issue 23), in Markdown.
//
//   geotrain_hard_table [--seeds K] [--gpus N] [--ablation [final]]
//
// Default: for every pool of the family (hard_pool.hpp; K pool seeds, 16
// pools each), the memetic run at default settings, seed 1, as
// `geotrain solve POOL --time-limit 10` prints it (objective, proven gap,
// wall and processor time of the run, the certificate's time), exact as
// `--method exact --time-limit 1` and metis-improved, then a summary.
// --ablation: the memetic objective with each of the additions of
// search.scale_moves switched on alone and all together, and on how many
// pools each is no worse than both exact after 1 s and metis-improved.
// --ablation final: only the variants of the final step's searches (none,
// the floor alone, all but each of the floor, exact at the restarts and the
// plain last search, all), a third of the runs.
// Times are the machine's: the plans do not depend on them (but exact's).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "api/api.hpp"
#include "api/planner.hpp"
#include "hard_pool.hpp"
#include "model/problem_json.hpp"
#include "search/stopwatch.hpp"

namespace {

using namespace geotrain;
using namespace geotrain::hard_family;

struct Reference {
  double exact = 0;   // exact after 1 s (its incumbent search included)
  double metis = 0;   // metis-improved, when its plan fits
  bool metis_fits = false;
};

Reference references(const std::string& text) {
  Reference r;
  SolveOptions exact;
  exact.method = Method::exact;
  exact.time_limit_s = 1;
  r.exact = solve_request(text, exact)["objective"].get<double>();
  SolveOptions metis;
  metis.method = Method::metis_improved;
  const auto m = solve_request(text, metis);
  r.metis = m["objective"].get<double>();
  r.metis_fits = m["feasible"].get<bool>();
  return r;
}

// Not worse than the reference, up to rounding in the last digits.
bool no_worse(double objective, double reference) { return objective <= reference * (1 + 1e-9); }

bool holds(double objective, const Reference& r) {
  return no_worse(objective, r.exact) && (!r.metis_fits || no_worse(objective, r.metis));
}

std::string metis_text(const Reference& r) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4f", r.metis);
  return r.metis_fits ? buffer : std::string(buffer) + " (does not fit)";
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// One pool's row, kept for the summary by size.
struct PoolRow {
  int gpus = 0, layers = 0;
  double objective = 0, gap = 0, run_cpu_ms = 0;
  Reference reference;
};

// The summary the README quotes: per GPUs x layers, how many pools hold,
// the mean ratios to exact after 1 s and to metis-improved (every pool, its
// plan fitting or not), the median and largest proven gap, the slowest run.
void size_table(const std::vector<PoolRow>& rows) {
  std::printf("\n| GPUs x layers | pools | memetic no worse than both | memetic / exact 1 s, mean | "
              "memetic / metis-improved, mean | median proven gap | largest gap | slowest memetic run, processor |\n"
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  std::vector<std::pair<int, int>> sizes;
  for (const PoolRow& row : rows)
    if (std::find(sizes.begin(), sizes.end(), std::make_pair(row.gpus, row.layers)) == sizes.end())
      sizes.emplace_back(row.gpus, row.layers);
  for (const auto& [gpus, layers] : sizes) {
    int pools = 0, held = 0;
    double to_exact = 0, to_metis = 0, slowest_ms = 0;
    std::vector<double> gaps;
    for (const PoolRow& row : rows) {
      if (row.gpus != gpus || row.layers != layers) continue;
      ++pools;
      held += holds(row.objective, row.reference);
      to_exact += row.objective / row.reference.exact;
      to_metis += row.objective / row.reference.metis;
      gaps.push_back(row.gap);
      slowest_ms = std::max(slowest_ms, row.run_cpu_ms);
    }
    std::printf("| %d x %d | %d | %d | %.2f | %.2f | %.1f%% | %.1f%% | %.1f s |\n", gpus, layers, pools, held,
                to_exact / pools, to_metis / pools, 100 * median(gaps), 100 * *std::max_element(gaps.begin(), gaps.end()),
                slowest_ms / 1000);
  }
}

void main_table(const std::vector<HardPoolShape>& family) {
  std::printf("| pool | memetic | exact 1 s | metis-improved | proven gap | memetic wall ms | memetic CPU ms | "
              "certificate CPU ms |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  int held = 0;
  double slowest_cpu_ms = 0;
  std::vector<double> gaps;
  std::vector<PoolRow> rows;
  for (const HardPoolShape& shape : family) {
    const std::string text = hard_pool_json(shape).dump();
    // What `geotrain solve POOL --time-limit 10` does (solve_request), in
    // its two steps, so that each has its own processor time.
    SolveOptions memetic;
    memetic.time_limit_s = 10;
    const PreparedProblem prepared = prepare_problem(parse_problem_text(text).problem, memetic);
    const std::clock_t start = std::clock();
    const SolveResult result = run_method(prepared, memetic);
    const std::clock_t ran = std::clock();
    const auto m = solve_result_to_json(prepared, result, {});
    const double run_cpu_ms = 1000.0 * static_cast<double>(ran - start) / CLOCKS_PER_SEC;
    const double certificate_ms = 1000.0 * static_cast<double>(std::clock() - ran) / CLOCKS_PER_SEC;
    const Reference r = references(text);
    const double objective = m["objective"].get<double>(), gap = m["gap"].get<double>();
    const bool ok = holds(objective, r);
    held += ok;
    slowest_cpu_ms = std::max(slowest_cpu_ms, run_cpu_ms);
    gaps.push_back(gap);
    rows.push_back({shape.num_gpus, shape.num_layers, objective, gap, run_cpu_ms, r});
    std::printf("| %s | %.4f%s | %.4f | %s | %.3f | %.0f | %.0f | %.0f |\n", hard_pool_name(shape).c_str(), objective,
                ok ? "" : " (worse)", r.exact, metis_text(r).c_str(), gap, m["elapsed_ms"].get<double>(), run_cpu_ms,
                certificate_ms);
    std::fflush(stdout);
  }
  std::printf("\nMemetic no worse than exact after 1 s and metis-improved (when it fits) on %d of %zu pools; "
              "slowest run %.0f ms of processor time; proven gap median %.3f, largest %.3f.\n",
              held, family.size(), slowest_cpu_ms, median(gaps), *std::max_element(gaps.begin(), gaps.end()));
  size_table(rows);
}

struct Variant {
  const char* name;
  ScaleMoves moves;
};

void ablation_table(const std::vector<HardPoolShape>& family, bool final_step_only) {
  // ScaleMoves{stage_moves, site_moves, seeds, restarts, final_nodes, final_floor, stall_polish,
  // final_plain}: none, each alone, all but each, all.
  std::vector<Variant> variants{{"none (before)", {false, false, false, false, false, false, false, false}}};
  const char* names[] = {"stage moves", "site moves", "seeds", "restarts", "final nodes", "final floor", "exact at restarts",
                         "plain last search"};
  auto with = [](int k, bool on) {
    ScaleMoves m{!on, !on, !on, !on, !on, !on, !on, !on};
    bool* fields[] = {&m.stage_moves, &m.site_moves, &m.seeds,        &m.restarts,
                      &m.final_nodes, &m.final_floor, &m.stall_polish, &m.final_plain};
    *fields[k] = on;
    return m;
  };
  for (int k = 0; k < 8; ++k) variants.push_back({names[k], with(k, true)});
  static std::string but[8];
  for (int k = 0; k < 8; ++k) {
    but[k] = std::string("all but ") + names[k];
    variants.push_back({but[k].c_str(), with(k, false)});
  }
  variants.push_back({"all (default)", ScaleMoves{}});
  if (final_step_only) {
    const std::vector<std::string> kept{"none (before)", "final floor", "all but final floor",
                                        "all but exact at restarts", "all but plain last search", "all (default)"};
    variants.erase(std::remove_if(variants.begin(), variants.end(),
                                  [&](const Variant& v) {
                                    return std::find(kept.begin(), kept.end(), v.name) == kept.end();
                                  }),
                   variants.end());
  }
  std::printf("| pool | exact 1 s | metis-improved |");
  for (const Variant& variant : variants) std::printf(" %s |", variant.name);
  std::printf("\n| --- | ---: | ---: |");
  for (std::size_t k = 0; k < variants.size(); ++k) std::printf(" ---: |");
  std::printf("\n");
  std::vector<int> held(variants.size(), 0);
  std::vector<double> ratio_sum(variants.size(), 0), cpu_ms(variants.size(), 0);
  for (const HardPoolShape& shape : family) {
    const std::string text = hard_pool_json(shape).dump();
    const Reference r = references(text);
    const PreparedProblem prepared = prepare_problem(parse_problem_text(text).problem, SolveOptions{});
    std::printf("| %s | %.4f | %s |", hard_pool_name(shape).c_str(), r.exact, metis_text(r).c_str());
    for (std::size_t k = 0; k < variants.size(); ++k) {
      PreparedProblem variant = prepared;
      variant.problem.search.scale_moves = variants[k].moves;
      const std::clock_t start = std::clock();
      const SolveResult result = run_method(variant, SolveOptions{});
      cpu_ms[k] += 1000.0 * static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
      const double objective = result.cost.objective;
      const bool ok = holds(objective, r);
      held[k] += ok;
      ratio_sum[k] += objective / std::min(r.exact, r.metis_fits ? r.metis : r.exact);
      std::printf(" %.4f%s |", objective, ok ? "" : " (worse)");
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  std::printf("| no worse than both, pools | | |");
  for (int h : held) std::printf(" %d of %zu |", h, family.size());
  std::printf("\n| mean objective / best reference | | |");
  for (double s : ratio_sum) std::printf(" %.4f |", s / static_cast<double>(family.size()));
  std::printf("\n| mean processor ms per run | | |");
  for (double ms : cpu_ms) std::printf(" %.0f |", ms / static_cast<double>(family.size()));
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  int seeds = 1, gpus = 0;
  bool ablation = false, final_step_only = false;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--seeds" && a + 1 < argc) seeds = std::atoi(argv[++a]);
    else if (arg == "--gpus" && a + 1 < argc) gpus = std::atoi(argv[++a]);
    else if (arg == "--ablation") {
      ablation = true;
      if (a + 1 < argc && std::string(argv[a + 1]) == "final") {
        final_step_only = true;
        ++a;
      }
    }
    else {
      std::fprintf(stderr, "usage: geotrain_hard_table [--seeds K] [--gpus N] [--ablation [final]]\n");
      return 2;
    }
  }
  std::vector<HardPoolShape> family;
  for (const HardPoolShape& shape : family_shapes(seeds))
    if (gpus == 0 || shape.num_gpus == gpus) family.push_back(shape);
  if (ablation) ablation_table(family, final_step_only);
  else main_table(family);
  return 0;
}

#pragma once
// `geotrain calibrate`: the compute utilisation of each GPU type in some
// plans, fitted so that the model's iteration time reproduces the times
// those plans were measured at.
//
// The unknowns are y_j = ln(compute_util_j), one per GPU type the plans use
// (a GPU without a type is a type of its own), bounded to [ln 1e-6, 0] so
// that every utilisation stays in the model's (0, 1]. A run k measured at
// M_k gives the relative residual r_k = (T_k(y) - M_k) / M_k, where T_k is
// the model's own iteration time of the plan (evaluate, as the CLI prints
// it), so sends, tensor and data-parallel traffic and the 1F1B max are all
// in it. T_k is not linear in 1/util: compute is, but the slowest stage
// (the max), and whether compute or a send dominates it, move as util
// moves; T_k is continuous and decreasing in each y_j, which is what the
// solvers rely on.
//  - One type, one run: the y where T(y) = M, by bisection (exact, unless
//    even util 1 is slower than measured: then util stays at 1 and the
//    fit says by how much the model is off).
//  - One type, several runs: min sum r_k^2 over y by a grid and golden
//    section.
//  - Several types: Levenberg-Marquardt on sum r_k^2 + sum_j (rho (y_j -
//    y0_j))^2 with rho = 1e-3 and y0 the problem's own utilisations: the
//    small pull decides only what the runs cannot tell apart (fewer runs
//    than types, or types that always run together), and moves a fit the
//    runs do determine by far less than their rounding.
// The fitted utilisation of a type applies to every GPU of that type in the
// problem, in a plan or not: it is a property of the card and the software.
#include <string>
#include <vector>

#include "measure/problem_document.hpp"
#include "measure/tool_text.hpp"

namespace geotrain::measure {

struct MeasuredRun {
  std::string name;       // the plan file's name, for messages and sources
  std::string plan_text;  // a plan file, or a `geotrain solve` output
  double iteration_ms = 0;
  std::string how;        // "given", "median of 9 logged intervals in train.log"
};

// The run's time from a Megatron-LM log (megatron_log.hpp); throws InputError naming the log's line.
MeasuredRun run_from_megatron_log(const std::string& name, const std::string& plan_text, const MeasuredFile& log);

struct TypeFit {
  std::string type;          // the catalogue type, or "gpu ID" for a GPU without one
  std::size_t gpus = 0;      // in the problem
  double before_min = 1, before_max = 1;
  double after = 1;
  std::string bound;         // "upper" (util 1), "lower" (util 1e-6) or ""
};

struct RunFit {
  std::string name, how;
  double measured_ms = 0, before_ms = 0, after_ms = 0;
  double error() const { return (after_ms - measured_ms) / measured_ms; }
};

struct Calibration {
  Document problem;
  std::vector<TypeFit> types;
  std::vector<RunFit> runs;
  double rms_error = 0;     // sqrt(mean r_k^2) after the fit
  bool determined = true;   // the runs tell every type apart
  std::string method;
  int evaluations = 0;
  std::vector<Change> changes;
  std::vector<std::string> warnings;
};

// Throws InputError naming the run (and its plan's field) or the problem's field.
Calibration calibrate(const std::string& problem_text, const std::vector<MeasuredRun>& runs);

}  // namespace geotrain::measure

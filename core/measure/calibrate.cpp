#include "measure/calibrate.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "api/api.hpp"
#include "measure/least_squares.hpp"
#include "measure/megatron_log.hpp"
#include "model/derived_checks.hpp"
#include "model/input_error.hpp"
#include "model/json_fields.hpp"
#include "model/json_text.hpp"
#include "model/problem_json.hpp"

namespace geotrain::measure {

namespace {

constexpr double kRidge = 1e-3;
constexpr double kMaxMeasuredMs = 1e9;

std::string type_key(const Document& gpu) {
  const std::string type = gpu.value("type", "");
  return type.empty() ? "gpu " + gpu.value("id", "") : type;
}

// The GPU ids a plan names: every "gpu" and "gpus" in it (one pipeline, or any nesting of replicas).
void plan_ids(const nlohmann::json& value, std::set<std::string>& ids) {
  if (value.is_array()) {
    for (const auto& v : value) plan_ids(v, ids);
    return;
  }
  if (!value.is_object()) return;
  for (const auto& [key, v] : value.items()) {
    if (key == "gpu" && v.is_string()) ids.insert(v.get<std::string>());
    else if (key == "gpus" && v.is_array())
      for (const auto& id : v)
        if (id.is_string()) ids.insert(id.get<std::string>());
    plan_ids(v, ids);
  }
}

// The problem cut to a plan's GPUs (the only ones its time depends on), with
// references given so that no baseline plan is searched for on each evaluation.
Document reduced_problem(const Document& doc, const std::set<std::string>& ids) {
  Document out = doc;
  Document gpus = Document::array();
  std::set<std::string> sites;
  for (const auto& g : doc["gpus"])
    if (ids.count(g.value("id", ""))) gpus.push_back(g), sites.insert(g.value("site", ""));
  out["gpus"] = gpus;
  if (out.contains("network") && out["network"].is_object()) {
    Document& net = out["network"];
    const auto keep = [&](const char* list, const std::set<std::string>& names) {
      if (!net.contains(list)) return;
      Document kept = Document::array();
      for (const auto& e : net[list])
        if (names.count(e.value("from", "")) && names.count(e.value("to", ""))) kept.push_back(e);
      net[list] = kept;
    };
    keep("links", ids);
    keep("site_links", sites);
  }
  out.erase("sites");
  out["objective"] = {{"lambda", 1}, {"t_ref_ms", 1}, {"e_ref_j", 1}};
  return out;
}

struct RunModel {
  MeasuredRun run;
  Document problem;                            // reduced
  std::vector<std::vector<std::size_t>> gpus;  // by fitted type: indices into problem.gpus
  std::set<std::size_t> types;                 // the fitted types it uses

  double iteration_ms(const std::vector<double>& utils) {
    for (std::size_t j = 0; j < gpus.size(); ++j)
      for (std::size_t i : gpus[j]) problem["gpus"][i]["compute_util"] = utils[j];
    return evaluate_request(problem.dump(), run.plan_text).at("iteration_ms").get<double>();
  }
};

std::vector<std::string> prefixed(const std::string& prefix, const InputError& e) {
  std::vector<std::string> out;
  for (const auto& m : e.messages()) out.push_back(prefix + m);
  return out;
}

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g%%", std::round(1e4 * fraction) / 100 + 0.0);  // to 0.01%, never "-0"
  return text;
}

std::string source_text(const std::vector<RunFit>& runs, double rms) {
  std::string text = "calibrated: " + std::to_string(runs.size()) + (runs.size() == 1 ? " run (" : " runs (");
  for (std::size_t k = 0; k < runs.size() && k < 3; ++k)
    text += (k ? ", " : "") + base_name(runs[k].name) + " " + number_text(runs[k].measured_ms) + " ms";
  if (runs.size() > 3) text += ", ...";
  return text + "), rms error " + percent(rms);
}

// Whether the runs' sensitivities to the types are independent (Gram-Schmidt on J's columns).
bool full_rank(const std::vector<std::vector<double>>& columns) {
  std::vector<std::vector<double>> basis;
  for (std::vector<double> c : columns) {
    double norm0 = 0;
    for (double v : c) norm0 += v * v;
    for (const auto& b : basis) {
      double dot = 0;
      for (std::size_t k = 0; k < c.size(); ++k) dot += c[k] * b[k];
      for (std::size_t k = 0; k < c.size(); ++k) c[k] -= dot * b[k];
    }
    double norm = 0;
    for (double v : c) norm += v * v;
    if (!(norm > 1e-12 * norm0) || norm0 == 0) return false;
    for (double& v : c) v /= std::sqrt(norm);
    basis.push_back(c);
  }
  return true;
}

}  // namespace

MeasuredRun run_from_megatron_log(const std::string& name, const std::string& plan_text, const MeasuredFile& log) {
  const IterationTimes times = parse_megatron_log(log);
  MeasuredRun run{name, plan_text, times.median_ms, ""};
  run.how = times.used == 1 ? "the one logged interval in " + base_name(log.name)
                            : "median of " + std::to_string(times.used) + " logged intervals in " + base_name(log.name) +
                                  " (the first, with start-up, left out)";
  return run;
}

Calibration calibrate(const std::string& problem_text, const std::vector<MeasuredRun>& runs) {
  ParsedProblem parsed;
  try {
    parsed = parse_problem_text(problem_text);
  } catch (const InputError& e) {
    throw InputError(prefixed("the problem to calibrate: ", e));
  }
  if (runs.empty()) throw InputError("calibrate: no measured runs (give --run PLAN:MS)");
  Calibration out;
  out.problem = Document::parse(problem_text);
  Document& doc = out.problem;
  // The types to fit, in the order the problem lists them.
  std::vector<std::string> types;
  std::vector<RunModel> models;
  for (const MeasuredRun& run : runs) {
    if (!(run.iteration_ms > 0) || run.iteration_ms > kMaxMeasuredMs)
      throw InputError(run.name + ": the measured iteration time must be a positive number of ms up to 1e9, got " +
                       number_text(run.iteration_ms));
    std::set<std::string> ids;
    try {
      plan_ids(parse_json_document(run.plan_text, run.name), ids);
    } catch (const InputError& e) {
      throw InputError(prefixed("", e));
    }
    for (const std::string& id : ids)
      if (std::none_of(doc["gpus"].begin(), doc["gpus"].end(), [&](const Document& g) { return g.value("id", "") == id; }))
        throw InputError(run.name + ": the plan names GPU " + quote_text(id) + ", which the problem does not have");
    RunModel m{run, reduced_problem(doc, ids), {}, {}};
    for (std::size_t i = 0; i < m.problem["gpus"].size(); ++i) {
      const std::string key = type_key(m.problem["gpus"][i]);
      auto at = std::find(types.begin(), types.end(), key);
      if (at == types.end()) at = types.insert(types.end(), key);
      const std::size_t j = static_cast<std::size_t>(at - types.begin());
      if (m.gpus.size() <= j) m.gpus.resize(j + 1);
      m.gpus[j].push_back(i);
      m.types.insert(j);
    }
    models.push_back(std::move(m));
  }
  for (auto& m : models) m.gpus.resize(types.size());
  // Each type's utilisation(s) in the problem, and the start of the fit.
  std::vector<double> y0(types.size(), 0.0);
  for (std::size_t j = 0; j < types.size(); ++j) {
    TypeFit t;
    t.type = types[j];
    t.before_min = INFINITY, t.before_max = 0;
    double log_sum = 0;
    for (std::size_t i = 0; i < parsed.problem.gpus.size(); ++i) {
      if (type_key(doc["gpus"][i]) != types[j]) continue;
      const double u = parsed.problem.gpus[i].compute_util;
      t.before_min = std::min(t.before_min, u), t.before_max = std::max(t.before_max, u), ++t.gpus;
      log_sum += std::log(u);
    }
    y0[j] = log_sum / static_cast<double>(t.gpus);
    out.types.push_back(t);
  }
  const auto utils_of = [](const std::vector<double>& y) {
    std::vector<double> u(y.size());
    for (std::size_t j = 0; j < y.size(); ++j) u[j] = std::exp(y[j]);
    return u;
  };
  const auto run_residuals = [&](const std::vector<double>& y) {
    const std::vector<double> u = utils_of(y);
    std::vector<double> r;
    for (auto& m : models) r.push_back((m.iteration_ms(u) - m.run.iteration_ms) / m.run.iteration_ms);
    out.evaluations += static_cast<int>(models.size());
    return r;
  };
  // Every plan evaluated once as the problem stands: a bad plan is refused before any fit.
  std::vector<double> before;
  for (auto& m : models) {
    try {
      std::vector<double> u(types.size(), 1.0);
      for (std::size_t j = 0; j < types.size(); ++j) u[j] = std::exp(y0[j]);
      before.push_back(m.iteration_ms(u));
    } catch (const InputError& e) {
      throw InputError(prefixed(m.run.name + ": ", e));
    }
  }
  const double lower = std::log(NumberLimits::kMinUtil);
  std::vector<double> y;
  if (types.size() == 1 && models.size() == 1) {
    out.method = "bisection: the utilisation at which the model's time equals the measured one";
    const double root = increasing_root([&](double v) { return -run_residuals({v})[0]; }, lower, 0.0);
    y = {root};
  } else if (types.size() == 1) {
    out.method = "least squares in one variable (grid and golden section) over " + std::to_string(models.size()) + " runs";
    y = {minimise_on_interval([&](double v) {
      double s = 0;
      for (double r : run_residuals({v})) s += r * r;
      return s;
    }, lower, 0.0)};
  } else {
    out.method = "Levenberg-Marquardt least squares over ln(compute_util) of " + std::to_string(types.size()) +
                 " types and " + std::to_string(models.size()) + " runs, with a 1e-3 pull toward the problem's values";
    const auto with_ridge = [&](const std::vector<double>& v) {
      std::vector<double> r = run_residuals(v);
      for (std::size_t j = 0; j < v.size(); ++j) r.push_back(kRidge * (v[j] - y0[j]));
      return r;
    };
    y = levenberg_marquardt(with_ridge, y0, std::vector<double>(types.size(), lower),
                            std::vector<double>(types.size(), 0.0))
            .x;
  }
  const std::vector<double> after = run_residuals(y);
  double sum = 0;
  for (std::size_t k = 0; k < models.size(); ++k) {
    const RunModel& m = models[k];
    out.runs.push_back({m.run.name, m.run.how, m.run.iteration_ms, before[k], m.run.iteration_ms * (1 + after[k])});
    sum += after[k] * after[k];
  }
  out.rms_error = std::sqrt(sum / static_cast<double>(models.size()));
  // Sensitivities at the fit (a step into the box), to say whether the runs determine every type.
  std::vector<std::vector<double>> columns;
  for (std::size_t j = 0; j < types.size(); ++j) {
    std::vector<double> moved = y;
    moved[j] -= 1e-4;
    std::vector<double> r = run_residuals(moved);
    for (std::size_t k = 0; k < r.size(); ++k) r[k] -= after[k];
    columns.push_back(r);
  }
  out.determined = models.size() >= types.size() && full_rank(columns);
  if (!out.determined)
    out.warnings.push_back(std::to_string(models.size()) + " run(s) cannot tell " + std::to_string(types.size()) +
                           " GPU types apart: the fit moved them as little as it could from the problem's values; "
                           "measure plans that use the types in other proportions");
  const std::string source = source_text(out.runs, out.rms_error);
  ChangeLog log;
  for (std::size_t j = 0; j < types.size(); ++j) {
    TypeFit& t = out.types[j];
    t.after = std::exp(y[j]);
    t.bound = y[j] >= 0 ? "upper" : y[j] <= lower ? "lower" : "";
    if (t.bound == "upper")
      out.warnings.push_back(t.type + ": even at compute_util 1 the model is slower than measured; the links or the "
                                      "plan may be priced too slowly");
    if (t.before_min != t.before_max)
      out.warnings.push_back(t.type + ": its GPUs had compute_util " + number_text(t.before_min) + " to " +
                             number_text(t.before_max) + "; all now have the fitted value");
    for (std::size_t i = 0; i < doc["gpus"].size(); ++i)
      if (type_key(doc["gpus"][i]) == t.type)
        log.set(doc["gpus"][i], index_path("gpus", i), "compute_util", t.after, source);
  }
  out.changes = std::move(log.changes());
  return out;
}

}  // namespace geotrain::measure

// Reading a study's options (studies.hpp): every fault at once, each naming its field.
#include <algorithm>
#include <cmath>

#include "model/input_error.hpp"
#include "model/json_fields.hpp"
#include "studies/studies.hpp"

namespace geotrain {

namespace {

constexpr StudyKind kKinds[] = {StudyKind::pareto, StudyKind::subset, StudyKind::latency, StudyKind::bandwidth,
                                StudyKind::split, StudyKind::parallelism, StudyKind::where, StudyKind::replicas};
constexpr std::int64_t kMaxSeed = (std::int64_t{1} << 53) - 1;
constexpr int kDefaultSeeds = 3;  // pareto, network sweeps, parallelism and where with memetic

std::string kind_names() {
  std::string text;
  for (StudyKind k : kKinds) text += (text.empty() ? "" : "|") + std::string(study_kind_name(k));
  return text;
}

bool is_network_sweep(StudyKind kind) { return kind == StudyKind::latency || kind == StudyKind::bandwidth; }
// Studies whose values are wide-area bandwidths in Gbps.
bool takes_bandwidths(StudyKind kind) { return kind == StudyKind::bandwidth || kind == StudyKind::replicas; }

std::vector<double> default_lambdas() {
  std::vector<double> lambdas;
  for (int k = 0; k <= 10; ++k) lambdas.push_back(k / 10.0);  // k / 10.0 is the double nearest k tenths
  return lambdas;
}

std::vector<double> default_values(StudyKind kind) {
  if (kind == StudyKind::latency) return {0.1, 1, 5, 10, 50, 100};
  if (kind == StudyKind::replicas) return {1, 10, 25, 50, 100, 200, 400};
  return {0.5, 2, 5, 10, 50, 100};
}

// A list of distinct numbers, each checked by `rule` (which returns the
// "must be ..." text when the value breaks it).
template <typename Rule>
std::vector<double> read_number_list(FieldReader& r, const nlohmann::json& options, const char* key, int max_count,
                                     Rule rule) {
  const std::string path = std::string("study.") + key;
  const nlohmann::json* list = r.array(options, "study", key, false);
  std::vector<double> values;
  if (!list) return values;
  if (list->empty()) r.error(path, "must list at least one value");
  if (static_cast<int>(list->size()) > max_count)
    r.error(path, "must list at most " + std::to_string(max_count) + " values, got " + std::to_string(list->size()));
  for (std::size_t i = 0; i < list->size() && static_cast<int>(i) < max_count; ++i) {
    const nlohmann::json& item = (*list)[i];
    const std::string where = index_path(path, i);
    if (!item.is_number() || !std::isfinite(item.get<double>())) {
      r.error(where, "must be a number, got " + FieldReader::describe(item));
      continue;
    }
    const double x = item.get<double>();
    if (const std::string broken = rule(x); !broken.empty()) {
      r.error(where, broken + ", got " + FieldReader::describe(item));
      continue;
    }
    const auto same = std::find(values.begin(), values.end(), x);
    if (same != values.end()) {
      r.error(where, "repeats " + index_path(key, static_cast<std::size_t>(same - values.begin())) + " (" +
                         FieldReader::describe(item) + ")");
      continue;
    }
    values.push_back(x);
  }
  return values;
}

}  // namespace

const char* study_kind_name(StudyKind kind) {
  switch (kind) {
    case StudyKind::pareto: return "pareto";
    case StudyKind::subset: return "subset";
    case StudyKind::latency: return "latency";
    case StudyKind::bandwidth: return "bandwidth";
    case StudyKind::split: return "split";
    case StudyKind::parallelism: return "parallelism";
    case StudyKind::where: return "where";
    case StudyKind::replicas: return "replicas";
  }
  return "";
}

std::optional<StudyKind> study_kind_from_name(const std::string& name) {
  for (StudyKind k : kKinds)
    if (name == study_kind_name(k)) return k;
  return std::nullopt;
}

namespace {

// `lambdas` (pareto) and `values` (network sweeps), each refused elsewhere.
void read_swept_lists(FieldReader& r, const nlohmann::json& options, StudyOptions& out) {
  const StudyKind kind = out.kind;
  const bool takes_lambdas = kind == StudyKind::pareto, takes_values = is_network_sweep(kind) || kind == StudyKind::replicas;
  auto given = [&options](const char* key) { return options.contains(key) && !options[key].is_null(); };
  if (given("lambdas") && !takes_lambdas)
    r.error("study.lambdas", std::string("only the pareto study takes lambdas, not ") + study_kind_name(kind));
  if (given("values") && !takes_values)
    r.error("study.values",
            std::string("only the latency, bandwidth and replicas sweeps take values, not ") + study_kind_name(kind));
  if (takes_lambdas) {
    out.lambdas = read_number_list(r, options, "lambdas", kMaxStudyLambdas, [](double x) {
      return x >= 0 && x <= 1 ? std::string() : std::string("must be in [0, 1]");
    });
    if (!given("lambdas")) out.lambdas = default_lambdas();
  }
  if (takes_values) {
    const bool latency = !takes_bandwidths(kind);
    out.values = read_number_list(r, options, "values", kMaxStudyValues, [latency](double x) {
      if (latency) return x >= 0 && x <= kMaxSweptLatencyMs ? std::string() : std::string("must be in [0, 1e6] ms");
      return x > 0 && x <= kMaxSweptBandwidthGbps ? std::string() : std::string("must be in (0, 1e6] Gbps");
    });
    if (!given("values")) out.values = default_values(kind);
  }
}

// `sync_every` (replicas only): distinct sync periods H, integers >= 1.
void read_sync_periods(FieldReader& r, const nlohmann::json& options, StudyOptions& out) {
  const bool given = options.contains("sync_every") && !options["sync_every"].is_null();
  if (given && out.kind != StudyKind::replicas)
    return r.error("study.sync_every", std::string("only the replicas study takes sync_every, not ") +
                                           study_kind_name(out.kind));
  if (out.kind != StudyKind::replicas) return;
  if (!given) {
    out.sync_every = {1};
    return;
  }
  const std::vector<double> periods = read_number_list(r, options, "sync_every", kMaxStudyValues, [](double x) {
    return x >= 1 && x <= static_cast<double>(kMaxSyncEvery) && x == std::floor(x)
               ? std::string()
               : std::string("must be an integer in [1, 1000000000]");
  });
  for (double h : periods) out.sync_every.push_back(static_cast<std::int64_t>(h));
}

// method, seeds, time_limit_s and seed.
void read_run_settings(FieldReader& r, const nlohmann::json& options, StudyOptions& out) {
  if (auto name = r.string(options, "study", "method", false)) {
    if (*name == "memetic") out.method = Method::memetic;
    else if (*name == "exact") out.method = Method::exact;
    else r.error("study.method", "must be memetic or exact, got " + FieldReader::describe(*name));
  }
  // Exact is deterministic: one seed unless asked for more.
  const bool several_seeds = out.method == Method::memetic && out.kind != StudyKind::subset &&
                             out.kind != StudyKind::split && out.kind != StudyKind::replicas;
  out.seeds = static_cast<int>(
      r.integer(options, "study", "seeds", false, 1, kMaxStudySeeds).value_or(several_seeds ? kDefaultSeeds : 1));
  out.time_limit_s = r.number(options, "study", "time_limit_s", false, Range::positive);
  if (out.time_limit_s && *out.time_limit_s > 86400)
    r.error("study.time_limit_s", "must be at most 86400 (one day), got " + FieldReader::describe(*out.time_limit_s));
  if (auto seed = r.integer(options, "study", "seed", false, 0, kMaxSeed)) out.seed = static_cast<std::uint64_t>(*seed);
}


// `axes` (pareto only): two distinct names of time|energy|carbon|cost.
void read_axes(FieldReader& r, const nlohmann::json& options, StudyOptions& out) {
  if (!options.contains("axes") || options["axes"].is_null()) return;
  if (out.kind != StudyKind::pareto)
    return r.error("study.axes", std::string("only the pareto study takes axes, not ") + study_kind_name(out.kind));
  const nlohmann::json& list = options["axes"];
  if (!list.is_array() || list.size() != 2)
    return r.error("study.axes", "must list two of time, energy, carbon and cost, got " + FieldReader::describe(list));
  StudyAxis chosen[2];
  bool ok = true;
  for (std::size_t i = 0; i < 2; ++i) {
    const std::string where = index_path("study.axes", i);
    std::optional<StudyAxis> axis;
    if (list[i].is_string()) axis = axis_from_name(list[i].get<std::string>());
    if (!axis) {
      r.error(where, "must be time, energy, carbon or cost, got " + FieldReader::describe(list[i]));
      ok = false;
      continue;
    }
    chosen[i] = *axis;
  }
  if (!ok) return;
  if (chosen[0] == chosen[1])
    return r.error("study.axes[1]", "repeats axes[0] (" + FieldReader::describe(list[1]) + "); name two different figures");
  out.axes = StudyAxes{chosen[0], chosen[1]};
}

}  // namespace

StudyOptions parse_study_options(const nlohmann::json& options) {
  FieldReader r;
  StudyOptions out;
  if (!r.open_object(options, "study", {"study", "lambdas", "seeds", "values", "method", "time_limit_s", "seed", "axes", "sync_every"}))
    throw InputError(r.errors());
  if (auto name = r.string(options, "study", "study", true)) {
    if (auto kind = study_kind_from_name(*name)) out.kind = *kind;
    else r.error("study.study", "must be one of " + kind_names() + ", got " + FieldReader::describe(*name));
  }
  if (!r.errors().empty()) throw InputError(r.errors());
  read_swept_lists(r, options, out);
  read_run_settings(r, options, out);
  read_axes(r, options, out);
  read_sync_periods(r, options, out);
  if (!r.errors().empty()) throw InputError(r.errors());
  out.warnings = r.warnings();
  return out;
}

}  // namespace geotrain

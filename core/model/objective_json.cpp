#include "model/objective_json.hpp"

#include <cstdio>
#include <set>

#include "model/derived_checks.hpp"
#include "model/json_fields.hpp"

namespace geotrain {

using nlohmann::json;
using L = ObjectiveLimits;

namespace {

// A number in [min, max]; absent gives `fallback`.
double bounded(FieldReader& r, const json& o, const std::string& p, const char* key, double min, double max,
               double fallback, const char* unit) {
  const auto value = r.number(o, p, key, false, Range::any);
  if (!value) return fallback;
  if (!(*value >= min && *value <= max)) {
    char limits[96];
    std::snprintf(limits, sizeof limits, "must be in [%g, %g]%s, got ", min, max, unit);
    r.error(field_path(p, key), limits + FieldReader::describe(*value));
    return fallback;
  }
  return *value;
}

std::string site_list(const std::set<std::string>& names) {
  std::string text;
  for (const auto& n : names) text += (text.empty() ? "" : ", ") + FieldReader::describe(n);
  return text;
}

}  // namespace

std::optional<ObjectiveWeights> read_weights(FieldReader& r, const json& objective, const std::string& p) {
  auto it = objective.find("weights");
  if (it == objective.end() || it->is_null()) return std::nullopt;
  const std::string wp = field_path(p, "weights");
  if (!r.open_object(*it, wp, {"time", "energy", "carbon", "cost"})) return std::nullopt;
  const std::size_t before = r.error_count();
  ObjectiveWeights w;
  w.time = bounded(r, *it, wp, "time", 0, L::kMaxWeight, 0, "");
  w.energy = bounded(r, *it, wp, "energy", 0, L::kMaxWeight, 0, "");
  w.carbon = bounded(r, *it, wp, "carbon", 0, L::kMaxWeight, 0, "");
  w.cost = bounded(r, *it, wp, "cost", 0, L::kMaxWeight, 0, "");
  if (r.error_count() != before) return std::nullopt;
  if (w.time == 0 && w.energy == 0 && w.carbon == 0 && w.cost == 0) {
    r.error(wp, "at least one of time, energy, carbon and cost must be > 0 (all are 0 or missing)");
    return std::nullopt;
  }
  return w;
}

Objective read_objective(FieldReader& r, const json& doc) {
  Objective obj;
  auto it = doc.find("objective");
  if (it == doc.end() || it->is_null()) return obj;
  const std::string p = "objective";
  if (!r.open_object(*it, p, {"lambda", "weights", "t_ref_ms", "e_ref_j", "c_ref_g", "m_ref"})) return obj;
  obj.lambda = r.number(*it, p, "lambda", false, Range::unit_closed).value_or(1.0);
  obj.weights = read_weights(r, *it, p);
  if (obj.weights && it->contains("lambda"))
    r.warning(p + ".lambda", "ignored: objective.weights replaces lambda");
  obj.t_ref_ms = r.number(*it, p, "t_ref_ms", false, Range::positive);
  obj.e_ref_j = r.number(*it, p, "e_ref_j", false, Range::positive);
  obj.c_ref_g = r.number(*it, p, "c_ref_g", false, Range::positive);
  obj.m_ref = r.number(*it, p, "m_ref", false, Range::positive);
  return obj;
}

std::map<std::string, SiteFigures> read_sites(FieldReader& r, const json& doc, const std::vector<Gpu>& gpus) {
  std::map<std::string, SiteFigures> sites;
  auto it = doc.find("sites");
  if (it == doc.end() || it->is_null()) return sites;
  if (!it->is_object()) {
    r.error("sites", "must be an object keyed by site name, got " + FieldReader::describe(*it));
    return sites;
  }
  std::set<std::string> used;
  for (const auto& g : gpus) used.insert(g.site);
  for (const auto& [name, value] : it->items()) {
    const std::string p = "sites." + (name.empty() ? std::string("\"\"") : name);
    if (!used.count(name)) {
      r.error(p, "no GPU is on site " + FieldReader::describe(name) + " (sites of the GPUs: " + site_list(used) + ")");
      continue;
    }
    if (!r.open_object(value, p, {"carbon_g_per_kwh", "pue", "price_per_kwh", "name", "note", "region"})) continue;
    SiteFigures f;
    f.carbon_g_per_kwh = bounded(r, value, p, "carbon_g_per_kwh", 0, L::kMaxCarbonGPerKwh, 0, " gCO2e/kWh");
    f.pue = bounded(r, value, p, "pue", 1, L::kMaxPue, 1, "");
    f.price_per_kwh = bounded(r, value, p, "price_per_kwh", 0, L::kMaxPricePerKwh, 0, " per kWh");
    sites[name] = f;
  }
  return sites;
}

Training read_training(FieldReader& r, const json& doc) {
  Training t;
  auto it = doc.find("training");
  if (it == doc.end() || it->is_null()) return t;
  if (!r.open_object(*it, "training", {"iterations", "sync_every", "sync_compression"})) return t;
  t.iterations = r.integer(*it, "training", "iterations", false, 1, L::kMaxIterations);
  t.sync_every = r.integer(*it, "training", "sync_every", false, 1, kMaxSyncEvery).value_or(1);
  t.sync_compression = r.number(*it, "training", "sync_compression", false, Range::unit_open_closed).value_or(1);
  return t;
}

json weights_to_json(const ObjectiveWeights& w) {
  return {{"time", w.time}, {"energy", w.energy}, {"carbon", w.carbon}, {"cost", w.cost}};
}

json objective_to_json(const Objective& o) {
  json objective = {{"lambda", o.lambda}};
  if (o.weights) objective["weights"] = weights_to_json(*o.weights);
  if (o.t_ref_ms) objective["t_ref_ms"] = *o.t_ref_ms;
  if (o.e_ref_j) objective["e_ref_j"] = *o.e_ref_j;
  if (o.c_ref_g) objective["c_ref_g"] = *o.c_ref_g;
  if (o.m_ref) objective["m_ref"] = *o.m_ref;
  return objective;
}

json sites_to_json(const std::map<std::string, SiteFigures>& sites) {
  json out = json::object();
  for (const auto& [name, f] : sites)
    out[name] = {{"carbon_g_per_kwh", f.carbon_g_per_kwh}, {"pue", f.pue}, {"price_per_kwh", f.price_per_kwh}};
  return out;
}

}  // namespace geotrain

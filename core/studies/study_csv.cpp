// Study summaries as CSV: a header line, then one row per table row (pareto)
// or per point (sweeps; split: one row per split). Numbers as JSON prints
// them (shortest round trip), whole numbers without ".0"; absent values are
// empty cells.
#include <cmath>
#include <sstream>

#include "studies/studies.hpp"

namespace geotrain {

using json = nlohmann::ordered_json;

namespace {

std::string cell(const json& value) {
  if (value.is_null()) return "";
  std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  // 1 rather than 1.0, as a spreadsheet would write it.
  if (value.is_number_float()) {
    const double x = value.get<double>();
    if (std::floor(x) == x && std::fabs(x) < 1e15) text = std::to_string(static_cast<long long>(x));
  }
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// A field of `object`, or null when it (or the object) is absent.
json field(const json& object, const char* key) {
  return object.is_object() && object.contains(key) ? object[key] : json(nullptr);
}

// "g3:4": one GPU; "n0g0+n0g1+n0g2+n0g3/t2:10": a group, its GPUs in shard
// order and its tensor degree.
std::string stage_cell(const json& s) {
  std::string text;
  if (s.contains("gpu")) {
    text = s["gpu"].get<std::string>();
  } else {
    for (const auto& g : s["gpus"]) text += (text.empty() ? "" : "+") + g.get<std::string>();
    text += "/t" + std::to_string(s.value("tensor_parallel", 1));
  }
  return text + ":" + std::to_string(s["layers"].get<int>());
}

std::string plan_cell(const json& stages) {
  if (!stages.is_array()) return "";
  std::string text;
  for (const auto& s : stages) text += (text.empty() ? "" : " ") + stage_cell(s);
  return text;
}

std::string sites_cell(const json& sites) {
  if (!sites.is_array()) return "";
  std::string text;
  for (const auto& s : sites) text += (text.empty() ? "" : " ") + s.get<std::string>();
  return text;
}

void row(std::ostringstream& out, const std::vector<json>& cells) {
  for (std::size_t i = 0; i < cells.size(); ++i) out << (i ? "," : "") << cell(cells[i]);
  out << "\n";
}

// A trade-off on other axes: all four figures, then the deltas of the two chosen.
void pareto_axes_csv(std::ostringstream& out, const json& summary) {
  std::vector<std::string> deltas;
  for (const auto& axis : summary["axes"]) {
    const std::string a = axis.get<std::string>();
    deltas.push_back(a == "time" ? "delta_t_pct" : a == "energy" ? "delta_e_pct" : a == "carbon" ? "delta_c_pct" : "delta_m_pct");
  }
  out << "lambda,job,iteration_ms,energy_j,carbon_g,cost," << deltas[0] << "," << deltas[1]
      << ",gpus_used,gpus,plan,seeds_agreeing,on_frontier,knee\n";
  for (const auto& r : summary["table"])
    row(out, {r["lambda"], r["job"], r["iteration_ms"], r["energy_j"], r["carbon_g"], r["cost"], r[deltas[0]],
              r[deltas[1]], r["gpus_used"], r["gpus"], plan_cell(r["stages"]), r["seeds_agreeing"], r["on_frontier"],
              r["knee"]});
}

// "best fastest": which of the summary's picks a row is.
std::string where_marks(const json& summary, const json& point) {
  std::string marks;
  for (const char* pick : {"best", "fastest", "cleanest", "cheapest"}) {
    const json& p = summary[pick];
    if (p.is_object() && p["sites"] == point["sites"]) marks += (marks.empty() ? "" : " ") + std::string(pick);
  }
  return marks;
}

void where_csv(std::ostringstream& out, const json& summary) {
  out << "sites,job,feasible,iteration_ms,energy_j,carbon_g,cost,objective,gpus_used,gpus,sites_used,plan,run_hours,"
         "run_energy_kwh,run_carbon_kg,run_cost,marks,error\n";
  for (const auto& p : summary["points"]) {
    const json run = field(p, "run");
    row(out, {sites_cell(p["sites"]), p["job"], p["feasible"], field(p, "iteration_ms"), field(p, "energy_j"),
              field(p, "carbon_g"), field(p, "cost"), field(p, "objective"), field(p, "gpus_used"), field(p, "gpus"),
              sites_cell(field(p, "sites_used")), plan_cell(field(p, "stages")), field(run, "hours"),
              field(run, "energy_kwh"), field(run, "carbon_kg"), field(run, "cost"), where_marks(summary, p),
              p.contains("error") ? p["error"] : field(p, "reason")});
  }
}

}  // namespace

std::string study_summary_csv(const json& summary) {
  std::ostringstream out;
  const std::string study = summary.value("study", "");
  if (study == "pareto" && summary.contains("axes")) {
    pareto_axes_csv(out, summary);
  } else if (study == "pareto") {
    out << "lambda,job,iteration_ms,energy_j,delta_t_pct,delta_e_pct,gpus_used,gpus,plan,seeds_agreeing,on_frontier,"
           "knee\n";
    for (const auto& r : summary["table"])
      row(out, {r["lambda"], r["job"], r["iteration_ms"], r["energy_j"], r["delta_t_pct"], r["delta_e_pct"],
                r["gpus_used"], r["gpus"], plan_cell(r["stages"]), r["seeds_agreeing"], r["on_frontier"], r["knee"]});
  } else if (study == "subset") {
    out << "k,job,feasible,iteration_ms,energy_j,objective,gpus,plan,error\n";
    for (const auto& p : summary["points"])
      row(out, {p["k"], p["job"], p["feasible"], field(p, "iteration_ms"), field(p, "energy_j"),
                field(p, "objective"), field(p, "gpus"), plan_cell(field(p, "stages")),
                p.contains("error") ? p["error"] : field(p, "reason")});
  } else if (study == "latency" || study == "bandwidth") {
    out << "value,unit,planner_iteration_ms,planner_energy_j,planner_sites,planner_plan,metis_iteration_ms,"
           "metis_energy_j,metis_sites,metis_plan,gain_pct\n";
    for (const auto& p : summary["points"]) {
      const json &a = p["planner"], &b = p["metis_improved"];
      row(out, {p["value"], summary["unit"], field(a, "iteration_ms"), field(a, "energy_j"),
                sites_cell(field(a, "sites_used")), plan_cell(field(a, "stages")), field(b, "iteration_ms"),
                field(b, "energy_j"), sites_cell(field(b, "sites_used")), plan_cell(field(b, "stages")),
                p["gain_pct"]});
    }
  } else if (study == "split") {
    out << "split,iteration_ms,energy_j,objective,feasible,bottleneck_stage,plan,gain_pct\n";
    for (const char* side : {"uniform", "non_uniform"}) {
      const json& s = summary[side];
      row(out, {side, field(s, "iteration_ms"), field(s, "energy_j"), field(s, "objective"), field(s, "feasible"),
                field(s, "bottleneck_stage"), plan_cell(field(s, "stages")),
                std::string(side) == "non_uniform" ? summary["gain_pct"] : json(nullptr)});
    }
  } else if (study == "where") {
    where_csv(out, summary);
  } else if (study == "replicas") {
    out << "bandwidth_gbps,sync_every,one_pipeline_iteration_ms,one_pipeline_gpus_used,replicas_iteration_ms,"
           "replicas_gpus_used,replica_count,winner,gain_pct\n";
    for (const auto& p : summary["points"]) {
      const json &a = p["one_pipeline"], &b = p["replicas"];
      row(out, {p["bandwidth_gbps"], p["sync_every"], field(a, "iteration_ms"), field(a, "gpus_used"),
                field(b, "iteration_ms"), field(b, "gpus_used"), field(b, "replica_count"), p["winner"], p["gain_pct"]});
    }
  } else if (study == "parallelism") {
    out << "parallelism,job,feasible,iteration_ms,energy_j,objective,gpus_used,stage_count,gpus,plan,gain_pct,error\n";
    for (const char* side : {"pipeline", "hybrid"}) {
      const json& s = summary[side];
      row(out, {side, field(s, "job"), field(s, "feasible"), field(s, "iteration_ms"), field(s, "energy_j"),
                field(s, "objective"), field(s, "gpus_used"), field(s, "stage_count"), field(s, "gpus"),
                plan_cell(field(s, "stages")), std::string(side) == "hybrid" ? summary["gain_pct"] : json(nullptr),
                s.is_object() && s.contains("error") ? s["error"] : field(s, "reason")});
    }
  }
  return out.str();
}

}  // namespace geotrain

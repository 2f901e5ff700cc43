#include "sim/trace.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "model/input_error.hpp"
#include "model/json_fields.hpp"

namespace geotrain {

namespace {

using json = nlohmann::json;

// Longest replay a trace may ask for: a bound on work, not on sense.
constexpr std::int64_t kMaxTraceIterations = 100000;

int gpu_index(const Problem& problem, const std::string& id) {
  for (std::size_t i = 0; i < problem.gpus.size(); ++i)
    if (problem.gpus[i].id == id) return static_cast<int>(i);
  return -1;
}

bool site_exists(const Problem& problem, const std::string& site) {
  for (const Gpu& g : problem.gpus)
    if (g.site == site) return true;
  return false;
}

void read_link_selector(FieldReader& r, const json& link, const std::string& path, const Problem& problem,
                        TraceChange& change) {
  if (!r.open_object(link, path, {"from", "to", "from_site", "to_site"})) return;
  const bool by_gpu = link.contains("from") || link.contains("to");
  const bool by_site = link.contains("from_site") || link.contains("to_site");
  if (by_gpu == by_site) {
    r.error(path, "must name either \"from\" and \"to\" (GPU ids) or \"from_site\" and \"to_site\"");
    return;
  }
  if (by_gpu) {
    const auto from = r.string(link, path, "from", true), to = r.string(link, path, "to", true);
    if (from && (change.from_gpu = gpu_index(problem, *from)) < 0)
      r.error(field_path(path, "from"), "no GPU has the id " + FieldReader::describe(*from));
    if (to && (change.to_gpu = gpu_index(problem, *to)) < 0)
      r.error(field_path(path, "to"), "no GPU has the id " + FieldReader::describe(*to));
    if (from && to && *from == *to) r.error(path, "a link joins two different GPUs");
    return;
  }
  const auto from = r.string(link, path, "from_site", true), to = r.string(link, path, "to_site", true);
  if (from && !site_exists(problem, *from)) r.error(field_path(path, "from_site"), "no GPU is at site " + FieldReader::describe(*from));
  if (to && !site_exists(problem, *to)) r.error(field_path(path, "to_site"), "no GPU is at site " + FieldReader::describe(*to));
  if (from) change.from_site = *from;
  if (to) change.to_site = *to;
}

void read_change(FieldReader& r, const json& item, const std::string& path, const Problem& problem, Trace& trace) {
  if (!r.open_object(item, path, {"at_ms", "gpu", "link", "slowdown", "bandwidth_factor", "bandwidth_gbps", "latency_ms"}))
    return;
  const std::size_t before = r.error_count();
  TraceChange change;
  if (auto at = r.number(item, path, "at_ms", true, Range::non_negative)) change.at_s = *at / 1000.0;
  const bool gpu = item.contains("gpu"), link = item.contains("link");
  if (gpu == link) {
    r.error(path, "must name either a \"gpu\" or a \"link\"");
    return;
  }
  if (gpu) {
    if (auto id = r.string(item, path, "gpu", true); id && (change.gpu = gpu_index(problem, *id)) < 0)
      r.error(field_path(path, "gpu"), "no GPU has the id " + FieldReader::describe(*id));
    change.slowdown = r.number(item, path, "slowdown", true, Range::positive);
    for (const char* key : {"bandwidth_factor", "bandwidth_gbps", "latency_ms"})
      if (item.contains(key)) r.error(field_path(path, key), "applies to a link, not to a GPU");
  } else {
    read_link_selector(r, item["link"], field_path(path, "link"), problem, change);
    change.bandwidth_factor = r.number(item, path, "bandwidth_factor", false, Range::positive);
    change.bandwidth_gbps = r.number(item, path, "bandwidth_gbps", false, Range::positive);
    change.latency_ms = r.number(item, path, "latency_ms", false, Range::non_negative);
    if (item.contains("slowdown")) r.error(field_path(path, "slowdown"), "applies to a GPU, not to a link");
    if (change.bandwidth_factor && change.bandwidth_gbps)
      r.error(path, "give bandwidth_factor or bandwidth_gbps, not both");
    if (!item.contains("bandwidth_factor") && !item.contains("bandwidth_gbps") && !item.contains("latency_ms"))
      r.error(path, "a link change needs bandwidth_factor, bandwidth_gbps or latency_ms");
  }
  if (r.error_count() == before) trace.changes.push_back(change);
}

}  // namespace

Trace parse_trace(const json& document, const Problem& problem, const std::string& path) {
  FieldReader r;
  Trace trace;
  if (r.open_object(document, path, {"iterations", "changes", "name", "description"})) {
    trace.iterations = r.integer(document, path, "iterations", false, 1, kMaxTraceIterations);
    if (const json* changes = r.array(document, path, "changes", false)) {
      const std::string list = field_path(path, "changes");
      for (std::size_t i = 0; i < changes->size(); ++i) read_change(r, (*changes)[i], index_path(list, i), problem, trace);
    }
  }
  if (!r.errors().empty()) throw InputError(r.errors());
  std::stable_sort(trace.changes.begin(), trace.changes.end(),
                   [](const TraceChange& a, const TraceChange& b) { return a.at_s < b.at_s; });
  return trace;
}

namespace {

bool selects(const TraceChange& c, const Problem& problem, const LinkEnds& ends) {
  if (c.is_gpu()) return false;
  if (c.from_gpu >= 0) return c.from_gpu == ends.from_gpu && c.to_gpu == ends.to_gpu;
  return problem.gpus[static_cast<std::size_t>(ends.from_gpu)].site == c.from_site &&
         problem.gpus[static_cast<std::size_t>(ends.to_gpu)].site == c.to_site;
}

RateSteps device_steps(const Trace& trace, const std::vector<int>& gpus) {
  RateSteps steps;
  std::map<int, double> slowdown;  // of the device's GPUs that have changed
  for (const TraceChange& c : trace.changes) {
    if (!c.is_gpu() || std::find(gpus.begin(), gpus.end(), c.gpu) == gpus.end()) continue;
    slowdown[c.gpu] = *c.slowdown;
    // A group computes at its slowest shard's pace: its slowest GPU sets it
    // (GPUs no change has named keep their planned speed, slowdown 1).
    double worst = slowdown.size() < gpus.size() ? 1.0 : 0.0;
    for (const auto& [gpu, s] : slowdown) worst = std::max(worst, s);
    steps.push_back(RateStep{c.at_s, 1.0 / worst, 0});
  }
  return steps;
}

RateSteps link_steps(const Trace& trace, const Problem& problem, const LinkEnds& ends, const LinkSpec& planned) {
  RateSteps steps;
  double factor = 1, latency_s = planned.latency_s();
  for (const TraceChange& c : trace.changes) {
    if (!selects(c, problem, ends)) continue;
    if (c.bandwidth_factor) factor = *c.bandwidth_factor;
    if (c.bandwidth_gbps) factor = *c.bandwidth_gbps / planned.bandwidth_gbps;
    if (c.latency_ms) latency_s = *c.latency_ms / 1000.0;
    steps.push_back(RateStep{c.at_s, factor, latency_s});
  }
  return steps;
}

}  // namespace

Conditions compile_conditions(const Trace& trace, const Problem& problem, const PipelineTimings& timings,
                              const std::vector<std::optional<ResolvedLink>>& links) {
  Conditions out;
  out.devices.reserve(timings.devices.size());
  for (const auto& gpus : timings.devices) out.devices.push_back(device_steps(trace, gpus));
  const std::size_t n = problem.gpus.size();
  out.links.reserve(timings.links.size());
  for (const LinkEnds& ends : timings.links) {
    const auto& link = links[static_cast<std::size_t>(ends.from_gpu) * n + static_cast<std::size_t>(ends.to_gpu)];
    out.links.push_back(link ? link_steps(trace, problem, ends, link->link) : RateSteps{});
  }
  return out;
}

}  // namespace geotrain

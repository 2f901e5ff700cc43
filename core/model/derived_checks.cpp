#include "model/derived_checks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/json_fields.hpp"
#include "model/objective_json.hpp"

namespace geotrain {

namespace {

using L = NumberLimits;

std::string number_text(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", x);
  return text;
}

// "must be in [1e-06, 100000], got 1e+300"
void check_range(FieldReader& r, const std::string& path, double value, double min, double max,
                 const char* why = "") {
  if (value >= min && value <= max) return;
  r.error(path, "must be in [" + number_text(min) + ", " + number_text(max) + "]" + why + ", got " +
                    FieldReader::describe(value));
}

// Watts: 0 (the GPU draws nothing we count) or a figure a real device could draw.
void check_power(FieldReader& r, const std::string& path, double watts) {
  if (watts == 0 || (watts >= L::kMinPowerW && watts <= L::kMaxPowerW)) return;
  r.error(path, "must be 0 or in [" + number_text(L::kMinPowerW) + ", " + number_text(L::kMaxPowerW) + "] W, got " +
                    FieldReader::describe(watts));
}

void check_gpu(FieldReader& r, const Gpu& g, const std::string& p) {
  check_range(r, p + ".peak_tflops", g.peak_tflops, L::kMinPeakTflops, L::kMaxPeakTflops,
             " TFLOPS");
  check_range(r, p + ".compute_util", g.compute_util, L::kMinUtil, 1);
  check_range(r, p + ".memory_gib", g.memory_gib, L::kMinMemoryGib, L::kMaxMemoryGib, " GiB");
  check_range(r, p + ".memory_util", g.memory_util, L::kMinUtil, 1);
  check_power(r, p + ".idle_w", g.idle_w);
  check_power(r, p + ".active_w", g.active_w);
  check_range(r, p + ".price_per_hour", g.price_per_hour, 0, ObjectiveLimits::kMaxPricePerHour, " per hour");
}

void check_link(FieldReader& r, const LinkSpec& l, const std::string& p) {
  check_range(r, p + ".bandwidth_gbps", l.bandwidth_gbps, L::kMinBandwidthGbps, L::kMaxBandwidthGbps, " Gbps");
  check_range(r, p + ".latency_ms", l.latency_ms, 0, L::kMaxLatencyMs, " ms");
  check_range(r, p + ".util", l.util, L::kMinUtil, 1);
  if (l.capacity_gbps != 0)
    check_range(r, p + ".capacity_gbps", l.capacity_gbps, L::kMinBandwidthGbps, L::kMaxBandwidthGbps, " Gbps");
}

bool finite_positive(double x) { return std::isfinite(x) && x > 0; }

// Every link spec of the network with its path in the file.
template <typename Visit>
void for_each_link(const NetworkSpec& net, Visit visit) {
  if (net.default_link) visit(*net.default_link, std::string("network.default"));
  if (net.intra_node) visit(*net.intra_node, std::string("network.intra_node"));
  if (net.intra_site) visit(*net.intra_site, std::string("network.intra_site"));
  if (net.inter_site) visit(*net.inter_site, std::string("network.inter_site"));
  for (std::size_t i = 0; i < net.site_links.size(); ++i)
    visit(net.site_links[i].link, index_path("network.site_links", i));
  for (std::size_t i = 0; i < net.links.size(); ++i) visit(net.links[i].link, index_path("network.links", i));
}

using Fault = std::pair<std::string, std::string>;  // field path, message

std::vector<Fault> derived_faults(const Problem& problem);

}  // namespace

void check_number_limits(FieldReader& r, const Problem& problem) {
  for (std::size_t i = 0; i < problem.gpus.size(); ++i) check_gpu(r, problem.gpus[i], index_path("gpus", i));
  for_each_link(problem.network, [&r](const LinkSpec& l, const std::string& p) { check_link(r, l, p); });
  if (problem.objective.t_ref_ms)
    check_range(r, "objective.t_ref_ms", *problem.objective.t_ref_ms, L::kMinReference, L::kMaxReference, " ms");
  if (problem.objective.e_ref_j)
    check_range(r, "objective.e_ref_j", *problem.objective.e_ref_j, L::kMinReference, L::kMaxReference, " J");
  if (problem.objective.c_ref_g)
    check_range(r, "objective.c_ref_g", *problem.objective.c_ref_g, L::kMinReference, L::kMaxReference, " g");
  if (problem.objective.m_ref)
    check_range(r, "objective.m_ref", *problem.objective.m_ref, L::kMinReference, L::kMaxReference, "");
  // replicas.md: c scales the bytes between replicas; below kMinUtil a sync
  // time could underflow to a denormal, as a link's util could.
  check_range(r, "training.sync_compression", problem.training.sync_compression, L::kMinUtil, 1);
  // Within the limits these always hold; checked anyway, as the planner does.
  if (r.error_count() == 0)
    for (const auto& [path, message] : derived_faults(problem)) r.error(path, message);
}

std::vector<std::string> derived_quantity_errors(const Problem& problem) {
  std::vector<std::string> errors;
  for (const auto& [path, message] : derived_faults(problem)) errors.push_back(path + ": " + message);
  return errors;
}

namespace {

std::vector<Fault> derived_faults(const Problem& problem) {
  std::vector<Fault> errors;
  auto fail = [&errors](const std::string& path, const std::string& what, double value) {
    errors.emplace_back(path, what + " is " + number_text(value) + ", must be finite and > 0");
  };
  const ModelConfig& m = problem.model;
  if (m.micro_batch_size <= 0 || m.global_batch_size <= 0 || m.num_layers <= 0 || m.hidden_size <= 0 ||
      m.seq_length <= 0 || m.vocab_size <= 0 || problem.gpus.empty()) {
    errors.emplace_back("model", "every size must be >= 1 and the pool must hold a GPU");
    return errors;
  }
  const double H = static_cast<double>(m.hidden_size), T = static_cast<double>(m.seq_length);
  const double V = static_cast<double>(m.vocab_size), u = static_cast<double>(m.micro_batch_size);
  const double M = static_cast<double>(m.micro_batches()), layers = static_cast<double>(m.num_layers);
  const double layer_flops = (1.0 + kBackwardFactor) * 24.0 * H * H * u * T;
  const double head_flops = (1.0 + kBackwardFactor) * 2.0 * u * T * H * V;
  const double activation_bytes = bytes_per_element(m.precision) * u * T * H;

  // The slowest stage any plan can have bounds every plan's figures.
  double slowest_stage_s = 0, idle_w = 0, active_w = 0;
  for (std::size_t i = 0; i < problem.gpus.size(); ++i) {
    const Gpu& g = problem.gpus[i];
    const std::string p = index_path("gpus", i);
    const double flops = g.effective_flops(), layer_s = layer_flops / flops, head_s = head_flops / flops;
    if (!finite_positive(flops)) fail(p, "the effective speed peak_tflops x 1e12 x compute_util (FLOP/s)", flops);
    else if (!finite_positive(layer_s)) fail(p, "one layer's compute time (s)", layer_s);
    else if (!finite_positive(head_s)) fail(p, "the LM head's compute time (s)", head_s);
    if (!finite_positive(g.effective_memory_bytes()))
      fail(p, "the usable memory memory_gib x 2^30 x memory_util (bytes)", g.effective_memory_bytes());
    for (auto [name, watts] : {std::pair{"idle_w", g.idle_w}, std::pair{"active_w", g.active_w}})
      if (!std::isfinite(watts) || watts < 0)
        errors.emplace_back(p + "." + name, "is " + number_text(watts) + " W, must be finite and >= 0");
    slowest_stage_s = std::max(slowest_stage_s, layers * layer_s + head_s);
    idle_w += g.idle_w, active_w += g.active_w;
  }
  double slowest_send_s = 0;
  for_each_link(problem.network, [&](const LinkSpec& l, const std::string& p) {
    const double bytes_per_s = l.effective_bytes_per_s(), send_s = l.latency_s() + activation_bytes / bytes_per_s;
    if (!finite_positive(bytes_per_s)) fail(p, "the effective bandwidth bandwidth_gbps x 1e9 / 8 x util (bytes/s)", bytes_per_s);
    else if (!std::isfinite(send_s) || !(l.latency_s() >= 0)) fail(p, "one activation's send time (s)", send_s);
    else slowest_send_s = std::max(slowest_send_s, send_s);
  });
  if (!errors.empty()) return errors;

  // T_iter = sum_q tau_q + (M - 1) max_q tau_q <= (N + M) max tau, and
  // E_iter <= T_iter sum P_idle + M sum P_act (L layers + head) each.
  const double stages = static_cast<double>(problem.gpus.size());
  const double max_iteration_s = (stages + M) * (slowest_stage_s + 2 * slowest_send_s);
  const double max_energy_j = max_iteration_s * idle_w + M * active_w * slowest_stage_s;
  if (!std::isfinite(max_iteration_s)) fail("model", "the largest iteration time a plan can have (s)", max_iteration_s);
  if (!std::isfinite(max_energy_j)) fail("gpus", "the largest energy a plan can use (J)", max_energy_j);
  const auto& t_ref = problem.objective.t_ref_ms;
  const auto& e_ref = problem.objective.e_ref_j;
  if (t_ref && !(finite_positive(*t_ref) && std::isfinite(max_iteration_s / (*t_ref / 1000.0))))
    fail("objective.t_ref_ms", "the time reference or the time term it divides", *t_ref);
  if (e_ref && !(finite_positive(*e_ref) && std::isfinite(max_energy_j / *e_ref)))
    fail("objective.e_ref_j", "the energy reference or the energy term it divides", *e_ref);
  // Carbon and money (objectives.md) scale the facility energy by at most the
  // largest PUE times intensity or price, and add at most every GPU's rent.
  double worst_pue_carbon = 0, worst_pue_price = 0, rent_per_hour = 0;
  for (const auto& [site, f] : problem.sites)
    worst_pue_carbon = std::max(worst_pue_carbon, f.pue * f.carbon_g_per_kwh),
    worst_pue_price = std::max(worst_pue_price, f.pue * f.price_per_kwh);
  for (const Gpu& g : problem.gpus) rent_per_hour += g.price_per_hour;
  const double max_carbon_g = max_energy_j / 3.6e6 * worst_pue_carbon;
  const double max_money = max_energy_j / 3.6e6 * worst_pue_price + rent_per_hour * max_iteration_s / 3600.0;
  const auto& c_ref = problem.objective.c_ref_g;
  const auto& m_ref = problem.objective.m_ref;
  if (!std::isfinite(max_carbon_g) || (c_ref && !std::isfinite(max_carbon_g / *c_ref)))
    fail("sites", "the largest carbon a plan can emit (g), or it over objective.c_ref_g", max_carbon_g);
  if (!std::isfinite(max_money) || (m_ref && !std::isfinite(max_money / *m_ref)))
    fail("gpus", "the largest money a plan can cost, or it over objective.m_ref", max_money);
  return errors;
}

}  // namespace

}  // namespace geotrain

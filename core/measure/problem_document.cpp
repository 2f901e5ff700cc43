#include "measure/problem_document.hpp"

#include <cmath>
#include <cstdio>

#include "model/json_fields.hpp"

namespace geotrain::measure {

namespace {

std::string text_of(const Document& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

std::optional<LinkSpec> link_of(const Document& value) {
  if (!value.is_object()) return std::nullopt;
  auto bw = value.find("bandwidth_gbps"), lat = value.find("latency_ms"), util = value.find("util");
  if (bw == value.end() || lat == value.end() || !bw->is_number() || !lat->is_number()) return std::nullopt;
  LinkSpec l;
  l.bandwidth_gbps = bw->get<double>();
  l.latency_ms = lat->get<double>();
  l.util = util != value.end() && util->is_number() ? util->get<double>() : 1.0;
  if (auto cap = value.find("capacity_gbps"); cap != value.end() && cap->is_number()) l.capacity_gbps = cap->get<double>();
  return l;
}

const char* level_path(LinkSource source) {
  switch (source) {
    case LinkSource::gpu_link: return "network.links";
    case LinkSource::intra_node: return "network.intra_node";
    case LinkSource::site_link: return "network.site_links";
    case LinkSource::intra_site: return "network.intra_site";
    case LinkSource::inter_site: return "network.inter_site";
    case LinkSource::default_link: return "network.default";
  }
  return "network";
}

Gpu model_gpu(const PoolGpu& g) {
  Gpu out;
  out.id = g.id, out.site = g.site, out.node = g.node;
  return out;
}

}  // namespace

void ChangeLog::set(Document& object, const std::string& path, const std::string& key, Document value,
                    const std::string& source) {
  const std::string p = path.empty() ? key : path + "." + key;
  Document before = object.contains(key) ? object[key] : Document();
  std::string old_source;
  if (object.contains("sources") && object["sources"].is_object() && object["sources"].contains(key) &&
      object["sources"][key].is_string())
    old_source = object["sources"][key].get<std::string>();
  if (before == value && old_source == source) return;
  object[key] = value;
  if (!source.empty()) {
    if (!object.contains("sources") || !object["sources"].is_object()) object["sources"] = Document::object();
    object["sources"][key] = source;
  } else if (object.contains("sources") && object["sources"].is_object()) {
    object["sources"].erase(key);
    if (object["sources"].empty()) object.erase("sources");
  }
  changes_.push_back({p, before.is_null() ? "added" : "changed", std::move(before), std::move(value), source});
}

void ChangeLog::erase(Document& object, const std::string& path, const std::string& key) {
  if (!object.contains(key)) return;
  const std::string p = path.empty() ? key : path + "." + key;
  changes_.push_back({p, "removed", object[key], Document(), ""});
  object.erase(key);
  if (object.contains("sources") && object["sources"].is_object()) {
    object["sources"].erase(key);
    if (object["sources"].empty()) object.erase("sources");
  }
}

void ChangeLog::append(Document& list, const std::string& list_path, Document value) {
  changes_.push_back({index_path(list_path, list.size()), "added", Document(), value, ""});
  list.push_back(std::move(value));
}

PoolIndex PoolIndex::of(const Document& doc) {
  PoolIndex pool;
  auto gpus = doc.find("gpus");
  if (gpus == doc.end() || !gpus->is_array()) return pool;
  for (std::size_t i = 0; i < gpus->size(); ++i) {
    const Document& g = (*gpus)[i];
    PoolGpu p;  // kept for every entry, so that gpus[k] is pool.gpus[k]
    p.index = i;
    if (!g.is_object()) {
      pool.gpus.push_back(std::move(p));
      continue;
    }
    p.id = text_of(g, "id"), p.type = text_of(g, "type"), p.host = text_of(g, "host");
    p.node = text_of(g, "node"), p.site = text_of(g, "site");
    if (auto d = g.find("device"); d != g.end() && d->is_number_integer()) p.device = d->get<int>();
    pool.gpus.push_back(std::move(p));
  }
  return pool;
}

std::vector<std::size_t> PoolIndex::on_host(const std::string& name) const {
  std::vector<std::size_t> out;
  for (const PoolGpu& g : gpus)
    if (!name.empty() && (g.host == name || (g.host.empty() && g.node == name))) out.push_back(g.index);
  return out;
}

std::vector<std::size_t> PoolIndex::on_node(const std::string& node) const {
  std::vector<std::size_t> out;
  for (const PoolGpu& g : gpus)
    if (g.node_name() == node) out.push_back(g.index);
  return out;
}

std::vector<std::size_t> PoolIndex::on_site(const std::string& site) const {
  std::vector<std::size_t> out;
  for (const PoolGpu& g : gpus)
    if (g.site == site) out.push_back(g.index);
  return out;
}

const PoolGpu* PoolIndex::gpu(const std::string& id) const {
  for (const PoolGpu& g : gpus)
    if (g.id == id) return &g;
  return nullptr;
}

bool PoolIndex::has_site(const std::string& site) const {
  for (const PoolGpu& g : gpus)
    if (g.site == site) return true;
  return false;
}

NetworkSpec network_of(const Document& doc) {
  NetworkSpec net;
  auto n = doc.find("network");
  if (n == doc.end() || !n->is_object()) return net;
  const auto level = [&](const char* key) { return n->contains(key) ? link_of((*n)[key]) : std::nullopt; };
  net.default_link = level("default");
  net.intra_node = level("intra_node");
  net.intra_site = level("intra_site");
  net.inter_site = level("inter_site");
  const auto directed = [&](const char* key, auto add) {
    if (!n->contains(key) || !(*n)[key].is_array()) return;
    for (const Document& e : (*n)[key])
      if (auto l = link_of(e); l && e.contains("from") && e.contains("to") && e["from"].is_string() && e["to"].is_string())
        add(e["from"].get<std::string>(), e["to"].get<std::string>(), *l);
  };
  directed("site_links", [&](auto f, auto t, auto l) { net.site_links.push_back({f, t, l, {}}); });
  directed("links", [&](auto f, auto t, auto l) { net.links.push_back({f, t, l, {}}); });
  return net;
}

std::optional<CurrentLink> current_link(const NetworkSpec& network, const PoolGpu& from, const PoolGpu& to) {
  const auto resolved = resolve_link(network, model_gpu(from), model_gpu(to));
  if (!resolved) return std::nullopt;
  return CurrentLink{resolved->link, level_path(resolved->source)};
}

std::optional<CurrentLink> current_site_link(const NetworkSpec& network, const std::string& from_site,
                                             const std::string& to_site) {
  // Two GPUs no `links` entry names ("\x01" is in no id), on nodes of their own.
  PoolGpu a, b;
  a.id = "\x01a", a.site = from_site;
  b.id = "\x01b", b.site = to_site;
  return current_link(network, a, b);
}

std::string imported(const std::string& file, std::size_t line, const std::string& detail) {
  std::string text = "imported: " + file;
  if (line) text += " line " + std::to_string(line);
  if (!detail.empty()) text += " (" + detail + ")";
  return text;
}

std::string number_text(double value) {
  char buffer[32];
  if (std::fabs(value) < 1e15 && value == std::floor(value)) std::snprintf(buffer, sizeof buffer, "%.0f", value);
  else std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

double significant(double value, int digits) {
  if (value == 0 || !std::isfinite(value)) return value;
  const double scale = std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(std::fabs(value)))));
  return std::round(value * scale) / scale;
}

}  // namespace geotrain::measure

#include "model/figure_sources.hpp"

#include <algorithm>

#include "model/json_fields.hpp"
#include "model/problem.hpp"

namespace geotrain {

using nlohmann::json;

namespace {

constexpr const char* kKinds[] = {"typed", "catalogue", "imported", "calibrated", "assumed"};
constexpr const char* kLevels[] = {"default", "intra_node", "intra_site", "inter_site"};

std::string kinds_text() {
  std::string text;
  for (const char* k : kKinds) text += (text.empty() ? "" : ", ") + std::string(k);
  return text;
}

bool has_sources(const json& object) { return object.is_object() && object.contains("sources"); }

// Checks one `sources` object; the figures it names must be among `keys`.
FigureSources read_sources(FieldReader& r, const json& value, const std::string& path,
                           const std::vector<std::string>& keys) {
  FigureSources out;
  if (!value.is_object()) {
    r.error(path, "must be an object mapping figures to where they came from, got " + FieldReader::describe(value));
    return out;
  }
  for (const auto& item : value.items()) {
    const std::string p = path + "." + item.key();
    if (std::find(keys.begin(), keys.end(), item.key()) == keys.end()) {
      r.warning(p, "not a figure that can carry a source, ignored");
      continue;
    }
    if (!item.value().is_string()) {
      r.error(p, "must be text such as \"imported: node1.csv line 2\", got " + FieldReader::describe(item.value()));
      continue;
    }
    const std::string text = item.value().get<std::string>();
    if (text.size() > kMaxSourceChars) {
      r.error(p, "must be at most " + std::to_string(kMaxSourceChars) + " characters, got " + std::to_string(text.size()));
    } else if (source_kind(text).empty()) {
      r.error(p, "must start with one of " + kinds_text() + " (then \": \" and a detail), got " +
                     FieldReader::describe(item.value()));
    } else {
      out[item.key()] = text;
    }
  }
  return out;
}

// Reads and removes `sources` from each object of list `key` under `parent`.
std::vector<FigureSources> take_list(FieldReader& r, json& parent, const char* key, const std::string& path,
                                     const std::vector<std::string>& keys) {
  std::vector<FigureSources> out;
  auto it = parent.find(key);
  if (it == parent.end() || !it->is_array()) return out;
  out.resize(it->size());
  for (std::size_t i = 0; i < it->size(); ++i) {
    json& item = (*it)[i];
    if (!has_sources(item)) continue;
    out[i] = read_sources(r, item["sources"], index_path(path, i) + ".sources", keys);
    item.erase("sources");
  }
  return out;
}

bool document_has_sources(const json& doc) {
  const auto any_in = [](const json& parent, const char* key) {
    auto it = parent.find(key);
    return it != parent.end() && it->is_array() && std::any_of(it->begin(), it->end(), has_sources);
  };
  if (!doc.is_object()) return false;
  if (any_in(doc, "gpus")) return true;
  auto net = doc.find("network");
  if (net == doc.end() || !net->is_object()) return false;
  for (const char* level : kLevels)
    if (auto l = net->find(level); l != net->end() && has_sources(*l)) return true;
  return any_in(*net, "site_links") || any_in(*net, "links");
}

void put(json& object, const FigureSources& sources) {
  if (!sources.empty() && object.is_object()) object["sources"] = sources;
}

}  // namespace

const std::vector<std::string>& gpu_figure_keys() {
  static const std::vector<std::string> keys = {"peak_tflops", "compute_util", "memory_gib",     "memory_util",
                                                "idle_w",      "active_w",     "price_per_hour"};
  return keys;
}

const std::vector<std::string>& link_figure_keys() {
  static const std::vector<std::string> keys = {"bandwidth_gbps", "latency_ms", "util", "capacity_gbps"};
  return keys;
}

std::string source_kind(const std::string& source) {
  for (const char* kind : kKinds) {
    const std::size_t n = std::char_traits<char>::length(kind);
    if (source.compare(0, n, kind) == 0 && (source.size() == n || source.compare(n, 2, ": ") == 0)) return kind;
  }
  return "";
}

TakenSources take_figure_sources(const json& document, FieldReader& r) {
  TakenSources taken;
  if (!document_has_sources(document)) return taken;
  taken.stripped = document;
  json& doc = *taken.stripped;
  taken.gpus = take_list(r, doc, "gpus", "gpus", gpu_figure_keys());
  if (auto net = doc.find("network"); net != doc.end() && net->is_object()) {
    for (const char* level : kLevels) {
      auto l = net->find(level);
      if (l == net->end() || !has_sources(*l)) continue;
      taken.levels[level] = read_sources(r, (*l)["sources"], std::string("network.") + level + ".sources",
                                         link_figure_keys());
      l->erase("sources");
    }
    taken.site_links = take_list(r, *net, "site_links", "network.site_links", link_figure_keys());
    taken.links = take_list(r, *net, "links", "network.links", link_figure_keys());
  }
  return taken;
}

void attach_figure_sources(TakenSources&& taken, Problem& problem) {
  for (std::size_t i = 0; i < taken.gpus.size() && i < problem.gpus.size(); ++i)
    problem.gpus[i].sources = std::move(taken.gpus[i]);
  NetworkSpec& net = problem.network;
  for (std::size_t i = 0; i < taken.site_links.size() && i < net.site_links.size(); ++i)
    net.site_links[i].sources = std::move(taken.site_links[i]);
  for (std::size_t i = 0; i < taken.links.size() && i < net.links.size(); ++i)
    net.links[i].sources = std::move(taken.links[i]);
  for (auto& [level, sources] : taken.levels)
    if (!sources.empty()) net.level_sources[level] = std::move(sources);
}

void write_figure_sources(const Problem& problem, json& document) {
  json& gpus = document["gpus"];
  for (std::size_t i = 0; i < problem.gpus.size() && i < gpus.size(); ++i) put(gpus[i], problem.gpus[i].sources);
  if (!document.contains("network")) return;
  json& net = document["network"];
  for (const auto& [level, sources] : problem.network.level_sources)
    if (net.contains(level)) put(net[level], sources);
  const auto put_list = [&](const char* key, const auto& entries) {
    if (!net.contains(key)) return;
    for (std::size_t i = 0; i < entries.size() && i < net[key].size(); ++i) put(net[key][i], entries[i].sources);
  };
  put_list("site_links", problem.network.site_links);
  put_list("links", problem.network.links);
}

}  // namespace geotrain

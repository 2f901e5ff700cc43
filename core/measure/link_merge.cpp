#include "measure/link_merge.hpp"

#include <algorithm>
#include <set>

#include "model/input_error.hpp"
#include "model/figure_sources.hpp"
#include "model/json_fields.hpp"

namespace geotrain::measure {

namespace {

using Pair = std::pair<std::size_t, std::size_t>;

// The figure most of `pairs` have (the first of equals), its sources saying
// how many other files gave the same, and the pairs that have it.
std::pair<LinkFigure, std::vector<Pair>> most_common(const std::map<Pair, LinkFigure>& figures,
                                                     const std::vector<Pair>& pairs) {
  const auto value = [](const std::optional<Measured>& m) { return m ? std::optional<double>(m->value) : std::nullopt; };
  std::map<std::pair<std::optional<double>, std::optional<double>>, std::vector<Pair>> groups;
  for (const Pair& p : pairs) {
    const LinkFigure& f = figures.at(p);
    groups[{value(f.bandwidth_gbps), value(f.latency_ms)}].push_back(p);
  }
  std::vector<Pair> best;
  for (auto& [key, alike] : groups)
    if (alike.size() > best.size() || (alike.size() == best.size() && alike.front() < best.front())) best = alike;
  LinkFigure out = figures.at(best.front());
  std::set<std::string> files;
  for (const Pair& p : best)
    if (const auto& f = figures.at(p); f.bandwidth_gbps) files.insert(f.bandwidth_gbps->file);
  if (files.size() > 1)
    for (auto* m : {&out.bandwidth_gbps, &out.latency_ms})
      if (*m && source_kind((*m)->source) == "imported")
        (*m)->source += "; the same from " + std::to_string(files.size() - 1) + " more file(s)";
  return {out, best};
}

// Whether every pair of `wanted` has a figure (and there is one at least).
bool all_measured(const std::map<Pair, LinkFigure>& figures, const std::vector<Pair>& wanted) {
  return !wanted.empty() && std::all_of(wanted.begin(), wanted.end(), [&](const Pair& p) { return figures.count(p) > 0; });
}

// The JSON declaration a resolved link comes from (the last of equal entries, as the model takes).
const Document* declaration(const Document& doc, LinkSource source, const PoolGpu& a, const PoolGpu& b) {
  const Document& net = doc["network"];
  const auto last = [&](const char* list, const std::string& from, const std::string& to) -> const Document* {
    if (!net.contains(list)) return nullptr;
    for (std::size_t i = net[list].size(); i-- > 0;)
      if (net[list][i].value("from", "") == from && net[list][i].value("to", "") == to) return &net[list][i];
    return nullptr;
  };
  switch (source) {
    case LinkSource::gpu_link: return last("links", a.id, b.id);
    case LinkSource::site_link: return last("site_links", a.site, b.site);
    case LinkSource::intra_node: return &net["intra_node"];
    case LinkSource::intra_site: return &net["intra_site"];
    case LinkSource::inter_site: return &net["inter_site"];
    case LinkSource::default_link: return &net["default"];
  }
  return nullptr;
}

// The pair's figure when an earlier import gave it (its bandwidth "imported", its latency imported
// or assumed, util 1); else none.
std::optional<LinkFigure> earlier_figure(const Document& doc, const NetworkSpec& network, const PoolGpu& a,
                                         const PoolGpu& b) {
  Gpu ga, gb;
  ga.id = a.id, ga.site = a.site, ga.node = a.node;
  gb.id = b.id, gb.site = b.site, gb.node = b.node;
  const auto resolved = resolve_link(network, ga, gb);
  if (!resolved || resolved->link.util != 1) return std::nullopt;
  const Document* d = declaration(doc, resolved->source, a, b);
  if (!d || !d->contains("sources")) return std::nullopt;
  const Document& sources = (*d)["sources"];
  const auto measured = [&](const char* key, double value, bool or_assumed) -> std::optional<Measured> {
    const std::string text = sources.contains(key) && sources[key].is_string() ? sources[key].get<std::string>() : "";
    const std::string kind = source_kind(text);
    if (kind != "imported" && !(or_assumed && kind == "assumed")) return std::nullopt;
    return Measured{value, text, "an earlier import"};
  };
  LinkFigure f;
  f.bandwidth_gbps = measured("bandwidth_gbps", resolved->link.bandwidth_gbps, false);
  f.latency_ms = measured("latency_ms", resolved->link.latency_ms, true);
  if (!f.bandwidth_gbps || !f.latency_ms) return std::nullopt;
  return f;
}

class Writer {
 public:
  Writer(Document& doc, ChangeLog& log) : doc_(doc), log_(log), before_(network_of(doc)), pool_(PoolIndex::of(doc)) {
    if (!doc_.contains("network") || !doc_["network"].is_object()) doc_["network"] = Document::object();
  }

  void level(const char* key, const LinkFigure& f, const std::string& what) {
    Document& net = doc_["network"];
    if (net.contains(key) && net[key].is_object()) return update(net[key], std::string("network.") + key, f);
    PoolGpu a, b;  // two GPUs of one node, named by nothing else
    a.id = "\x01a", b.id = "\x01b", a.node = b.node = "\x01node";
    log_.set(net, "network", key, fresh({}, f, current_link(before_, a, b), what));
  }

  void site_link(const std::string& from, const std::string& to, const LinkFigure& f) {
    if (Document* entry = last_entry("site_links", from, to)) return update(*entry, path_, f);
    const std::string what = "site " + from + " -> " + to;
    add("site_links", fresh({{"from", from}, {"to", to}}, f, current_site_link(before_, from, to), what, true));
  }

  bool has_gpu_link(const Pair& p) {
    return last_entry("links", pool_.gpus[p.first].id, pool_.gpus[p.second].id) != nullptr;
  }

  void gpu_link(const Pair& p, const LinkFigure& f) {
    const PoolGpu &a = pool_.gpus[p.first], &b = pool_.gpus[p.second];
    if (Document* entry = last_entry("links", a.id, b.id)) return update(*entry, path_, f);
    add("links", fresh({{"from", a.id}, {"to", b.id}}, f, current_link(before_, a, b), a.id + " -> " + b.id));
  }

 private:
  Document& doc_;
  ChangeLog& log_;
  const NetworkSpec before_;  // the network as it was: where a new entry's missing figure comes from
  const PoolIndex pool_;
  std::string path_;

  Document* last_entry(const char* list, const std::string& from, const std::string& to) {
    Document& net = doc_["network"];
    if (!net.contains(list) || !net[list].is_array()) return nullptr;
    for (std::size_t i = net[list].size(); i-- > 0;) {
      Document& e = net[list][i];
      if (e.is_object() && e.value("from", "") == from && e.value("to", "") == to) {
        path_ = index_path(std::string("network.") + list, i);
        return &e;
      }
    }
    return nullptr;
  }

  void update(Document& entry, const std::string& path, const LinkFigure& f) {
    if (f.bandwidth_gbps) {
      log_.set(entry, path, "bandwidth_gbps", f.bandwidth_gbps->value, f.bandwidth_gbps->source);
      if (entry.contains("util") && entry["util"] != Document(1))
        log_.set(entry, path, "util", 1, "assumed: 1, since a measured rate is already the effective one");
    }
    if (f.latency_ms) log_.set(entry, path, "latency_ms", f.latency_ms->value, f.latency_ms->source);
  }

  void add(const char* list, Document entry) {
    Document& net = doc_["network"];
    if (!net.contains(list) || !net[list].is_array()) net[list] = Document::array();
    log_.append(net[list], std::string("network.") + list, std::move(entry));
  }

  // A new declaration: the measured figures, the rest from the link in use today.
  static Document fresh(Document entry, const LinkFigure& f, const std::optional<CurrentLink>& today,
                        const std::string& what, bool takes_capacity = false) {
    Document sources = Document::object();
    const std::string file = f.bandwidth_gbps ? f.bandwidth_gbps->file : f.latency_ms ? f.latency_ms->file : "import";
    const auto missing = [&](const char* figure, const char* advice) {
      return InputError(file + ": no " + figure + " for the new link " + what + ", and no link it uses today to take one " +
                        "from: " + advice);
    };
    if (f.bandwidth_gbps) {
      entry["bandwidth_gbps"] = f.bandwidth_gbps->value, sources["bandwidth_gbps"] = f.bandwidth_gbps->source;
    } else if (today) {
      entry["bandwidth_gbps"] = today->link.bandwidth_gbps, sources["bandwidth_gbps"] = "assumed: as " + today->declared_at;
    } else {
      throw missing("bandwidth", "import an iperf3 result for it, or add network.default");
    }
    if (f.latency_ms) {
      entry["latency_ms"] = f.latency_ms->value, sources["latency_ms"] = f.latency_ms->source;
    } else if (f.latency_if_new) {
      entry["latency_ms"] = f.latency_if_new->value, sources["latency_ms"] = f.latency_if_new->source;
    } else if (today) {
      entry["latency_ms"] = today->link.latency_ms, sources["latency_ms"] = "assumed: as " + today->declared_at;
    } else {
      throw missing("latency", "import a ping file for it, or add network.default");
    }
    if (!f.bandwidth_gbps && today && today->link.util != 1) {
      entry["util"] = today->link.util, sources["util"] = "assumed: as " + today->declared_at;
    }
    // A site pipe's capacity is the link's own (replicas.md: no inheritance), so a new site_links
    // entry that took over from inter_site keeps its capacity: the import measured a rate, not the pipe.
    if (takes_capacity && today && today->link.capacity_gbps > 0) {
      entry["capacity_gbps"] = today->link.capacity_gbps, sources["capacity_gbps"] = "assumed: as " + today->declared_at;
    }
    entry["sources"] = sources;
    return entry;
  }
};

}  // namespace

void LinkFigures::gpu_pair(std::size_t from, std::size_t to, const LinkFigure& figure) {
  LinkFigure& f = gpu_pairs_[{from, to}];
  if (figure.bandwidth_gbps) f.bandwidth_gbps = figure.bandwidth_gbps;
  if (figure.latency_ms) f.latency_ms = figure.latency_ms;
  if (figure.latency_if_new) f.latency_if_new = figure.latency_if_new;
}

void LinkFigures::site_pair(const std::string& from, const std::string& to, const LinkFigure& figure,
                            std::vector<std::string>& warnings) {
  LinkFigure& f = site_pairs_[{from, to}];
  const auto take = [&](std::optional<Measured>& mine, const std::optional<Measured>& theirs, const char* what) {
    if (!theirs) return;
    if (mine && mine->file != theirs->file)
      warnings.push_back(theirs->file + ": the " + what + " of site " + from + " -> " + to + " replaces the one from " +
                         mine->file);
    mine = theirs;
  };
  take(f.bandwidth_gbps, figure.bandwidth_gbps, "bandwidth");
  take(f.latency_ms, figure.latency_ms, "latency");
  if (figure.latency_if_new) f.latency_if_new = figure.latency_if_new;
}

void LinkFigures::apply(Document& doc, ChangeLog& log) const {
  const PoolIndex pool = PoolIndex::of(doc);
  const NetworkSpec before = network_of(doc);
  Writer writer(doc, log);
  std::vector<Pair> same_node;
  std::map<std::string, std::vector<Pair>> cross_node_by_site;
  for (const PoolGpu& a : pool.gpus)
    for (const PoolGpu& b : pool.gpus) {
      if (a.index == b.index || a.id.empty() || b.id.empty()) continue;
      if (a.node_name() == b.node_name()) same_node.push_back({a.index, b.index});
      else if (a.site == b.site) cross_node_by_site[a.site].push_back({a.index, b.index});
    }
  // What an earlier import measured counts too: importing one site after another lifts over both.
  std::map<Pair, LinkFigure> figures = gpu_pairs_;
  const auto add_earlier = [&](const std::vector<Pair>& pairs) {
    for (const Pair& p : pairs)
      if (!figures.count(p))
        if (auto f = earlier_figure(doc, before, pool.gpus[p.first], pool.gpus[p.second])) figures[p] = *f;
  };
  const auto any_new = [&](const std::vector<Pair>& pairs) {
    return std::any_of(pairs.begin(), pairs.end(), [&](const Pair& p) { return gpu_pairs_.count(p) > 0; });
  };
  std::set<Pair> placed;
  const auto lift = [&](const std::vector<Pair>& pairs, auto write) {
    if (!any_new(pairs)) return;
    add_earlier(pairs);
    if (!all_measured(figures, pairs)) return;
    auto [figure, alike] = most_common(figures, pairs);
    write(figure);
    placed.insert(alike.begin(), alike.end());
    for (const Pair& p : alike)  // an older links entry would hide the level from its pair
      if (writer.has_gpu_link(p)) writer.gpu_link(p, figure);
  };
  lift(same_node, [&](const LinkFigure& f) { writer.level("intra_node", f, "intra-node link"); });
  for (const auto& [site, pairs] : cross_node_by_site)
    lift(pairs, [&, &site = site](const LinkFigure& f) { writer.site_link(site, site, f); });
  for (const auto& [pair, figure] : figures)
    if (!placed.count(pair)) writer.gpu_link(pair, figure);
  for (const auto& [sites, figure] : site_pairs_) writer.site_link(sites.first, sites.second, figure);
}

}  // namespace geotrain::measure

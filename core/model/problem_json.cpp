#include "model/problem_json.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "model/derived_checks.hpp"
#include "model/figure_sources.hpp"
#include "model/gpu_catalogue.hpp"
#include "model/input_error.hpp"
#include "model/json_fields.hpp"
#include "model/json_text.hpp"
#include "model/objective_json.hpp"

namespace geotrain {

using nlohmann::json;

namespace {

constexpr std::int64_t kMaxSeed = (std::int64_t{1} << 53) - 1;  // exact in a JavaScript number

std::optional<Precision> precision_from_name(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  if (name == "fp16") return Precision::fp16;
  if (name == "bf16") return Precision::bf16;
  if (name == "fp32") return Precision::fp32;
  return std::nullopt;
}

ModelConfig read_model(FieldReader& r, const json& doc) {
  ModelConfig m;
  const std::string p = "model";
  auto it = doc.find("model");
  if (it == doc.end()) {
    r.error(p, "required");
    return m;
  }
  if (!r.open_object(*it, p,
                     {"hidden_size", "num_layers", "seq_length", "vocab_size", "micro_batch_size",
                      "global_batch_size", "precision", "name", "num_attention_heads"}))
    return m;
  const json& o = *it;
  m.hidden_size = r.integer(o, p, "hidden_size", true, 1, 1'000'000).value_or(0);
  m.num_layers = r.integer(o, p, "num_layers", true, 1, kMaxLayers).value_or(0);
  m.seq_length = r.integer(o, p, "seq_length", true, 1, 10'000'000).value_or(0);
  m.vocab_size = r.integer(o, p, "vocab_size", true, 1, 100'000'000).value_or(0);
  m.micro_batch_size = r.integer(o, p, "micro_batch_size", true, 1, 1'000'000).value_or(0);
  m.global_batch_size = r.integer(o, p, "global_batch_size", true, 1, 1'000'000'000).value_or(0);
  if (m.micro_batch_size > 0 && m.global_batch_size > 0 && m.global_batch_size % m.micro_batch_size != 0)
    r.error("model.global_batch_size", "must be a multiple of model.micro_batch_size (" +
                                           std::to_string(m.micro_batch_size) + "), got " +
                                           std::to_string(m.global_batch_size));
  m.num_attention_heads = r.integer(o, p, "num_attention_heads", false, 1, 1'000'000).value_or(0);
  if (m.num_attention_heads > 0 && m.hidden_size > 0 && m.hidden_size % m.num_attention_heads != 0)
    r.error("model.num_attention_heads", "must divide model.hidden_size (" + std::to_string(m.hidden_size) +
                                             ") into whole heads, got " + std::to_string(m.num_attention_heads));
  if (auto name = r.string(o, p, "precision", false)) {
    if (auto precision = precision_from_name(*name)) m.precision = *precision;
    else r.error("model.precision", "must be one of fp16, bf16, fp32, got " + FieldReader::describe(*name));
  }
  return m;
}

// Fills a number from the catalogue when the file leaves it out.
void fill_from_catalogue(FieldReader& r, const json& o, const std::string& p, const char* key,
                         const CatalogueEntry* entry, double catalogue_value, const std::string& type,
                         double& out) {
  if (o.contains(key) && !o[key].is_null()) return;  // the file's own value (or its error) stands
  if (entry && catalogue_value > 0) {
    out = catalogue_value;
  } else if (entry) {
    r.error(field_path(p, key), "required: the catalogue has no such figure for type \"" + type + "\"");
  } else if (!type.empty()) {
    r.error(field_path(p, key), "required (type \"" + type + "\" is not in the built-in catalogue)");
  } else {
    r.error(field_path(p, key), "required (or give a catalogue `type`)");
  }
}

Gpu read_gpu(FieldReader& r, const json& o, const std::string& p, Precision precision) {
  Gpu g;
  if (!r.open_object(o, p,
                     {"id", "type", "site", "node", "host", "device", "peak_tflops", "compute_util", "memory_gib",
                      "memory_util", "idle_w", "active_w", "price_per_hour", "name", "note"}))
    return g;
  g.id = r.string(o, p, "id", true).value_or("");
  if (o.contains("id") && o["id"].is_string() && g.id.empty()) r.error(field_path(p, "id"), "must not be empty");
  g.type = r.string(o, p, "type", false).value_or("");
  g.site = r.string(o, p, "site", false).value_or("");
  g.node = r.string(o, p, "node", false).value_or("");
  if (o.contains("node") && o["node"].is_string() && g.node.empty())
    r.error(field_path(p, "node"), "must not be empty (leave it out for a node of its own)");
  g.host = r.string(o, p, "host", false).value_or("");
  if (o.contains("host") && o["host"].is_string() && g.host.empty())
    r.error(field_path(p, "host"), "must not be empty (leave it out when unknown)");
  g.device = static_cast<int>(r.integer(o, p, "device", false, 0, 1023).value_or(-1));
  const CatalogueEntry* entry = g.type.empty() ? nullptr : find_catalogue_entry(g.type);
  if (entry) g.type = entry->name;

  g.peak_tflops = r.number(o, p, "peak_tflops", false, Range::positive).value_or(0);
  g.memory_gib = r.number(o, p, "memory_gib", false, Range::positive).value_or(0);
  g.idle_w = r.number(o, p, "idle_w", false, Range::non_negative).value_or(0);
  const auto active_w = r.number(o, p, "active_w", false, Range::non_negative);
  g.active_w = active_w.value_or(0);
  fill_from_catalogue(r, o, p, "peak_tflops", entry, entry ? entry->peak_tflops(precision) : 0, g.type,
                      g.peak_tflops);
  fill_from_catalogue(r, o, p, "memory_gib", entry, entry ? entry->memory_gib : 0, g.type, g.memory_gib);
  fill_from_catalogue(r, o, p, "idle_w", entry, entry ? entry->idle_w : 0, g.type, g.idle_w);
  fill_from_catalogue(r, o, p, "active_w", entry, entry ? entry->active_w : 0, g.type, g.active_w);
  g.price_per_hour = r.number(o, p, "price_per_hour", false, Range::non_negative).value_or(0);
  g.compute_util = r.number(o, p, "compute_util", false, Range::unit_open_closed).value_or(1);
  g.memory_util = r.number(o, p, "memory_util", false, Range::unit_open_closed).value_or(1);
  if ((active_w || g.active_w > 0) && g.active_w < g.idle_w) {
    r.error(field_path(p, "active_w"), "must be >= idle_w (" + FieldReader::describe(g.idle_w) + "), got " +
                                           FieldReader::describe(g.active_w));
  }
  return g;
}

// A node is one machine: all its GPUs on one site.
void check_nodes(FieldReader& r, const std::vector<Gpu>& gpus) {
  std::map<std::string, std::size_t> first_of_node;
  std::set<std::string> own_nodes;  // GPUs without `node`: a duplicate id is reported on its own
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    if (gpus[i].id.empty() || (gpus[i].node.empty() && !own_nodes.insert(gpus[i].id).second)) continue;
    auto [it, inserted] = first_of_node.emplace(gpus[i].node_name(), i);
    const Gpu& first = gpus[it->second];
    if (!inserted && first.site != gpus[i].site)
      r.error(index_path("gpus", i) + ".site",
              "node " + FieldReader::describe(gpus[i].node_name()) + " is on site " + FieldReader::describe(first.site) +
                  " (" + index_path("gpus", it->second) + "); every GPU of a node must share its site, got " +
                  FieldReader::describe(gpus[i].site));
  }
}

std::vector<Gpu> read_gpus(FieldReader& r, const json& doc, Precision precision) {
  std::vector<Gpu> gpus;
  const json* list = r.array(doc, "", "gpus", true);
  if (!list) return gpus;
  if (list->empty()) {
    r.error("gpus", "must list at least one GPU");
    return gpus;
  }
  if (list->size() > static_cast<std::size_t>(kMaxGpus)) {
    r.error("gpus", "at most " + std::to_string(kMaxGpus) + " GPUs are supported, got " +
                        std::to_string(list->size()));
    return gpus;
  }
  std::map<std::string, std::size_t> first_index;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string p = index_path("gpus", i);
    gpus.push_back(read_gpu(r, (*list)[i], p, precision));
    const std::string& id = gpus.back().id;
    if (id.empty()) continue;
    auto [it, inserted] = first_index.emplace(id, i);
    if (!inserted)
      r.error(p + ".id", "duplicate of " + index_path("gpus", it->second) + ".id " + FieldReader::describe(id));
  }
  check_nodes(r, gpus);
  return gpus;
}

// `capacity` marks the specs that may carry capacity_gbps (replicas.md:
// network.inter_site and site_links, the wide-area pipes between sites).
std::optional<LinkSpec> read_link_spec(FieldReader& r, const json& o, const std::string& p,
                                       std::initializer_list<const char*> known, bool capacity = false) {
  if (!r.open_object(o, p, known)) return std::nullopt;
  LinkSpec l;
  auto bandwidth = r.number(o, p, "bandwidth_gbps", true, Range::positive);
  auto latency = r.number(o, p, "latency_ms", true, Range::non_negative);
  auto util = r.number(o, p, "util", false, Range::unit_open_closed);
  if (capacity) l.capacity_gbps = r.number(o, p, "capacity_gbps", false, Range::positive).value_or(0);
  else if (o.contains("capacity_gbps"))
    r.error(field_path(p, "capacity_gbps"), "only network.inter_site and network.site_links take a capacity "
                                            "(the shared pipe between two sites)");
  if (!bandwidth || !latency) return std::nullopt;
  l.bandwidth_gbps = *bandwidth;
  l.latency_ms = *latency;
  l.util = util.value_or(1);
  return l;
}

std::string list_names(const std::set<std::string>& names) {
  std::string text;
  for (const auto& n : names) text += (text.empty() ? "" : ", ") + (n.empty() ? std::string("\"\"") : n);
  return text;
}

NetworkSpec read_network(FieldReader& r, const json& doc, const std::vector<Gpu>& gpus) {
  NetworkSpec net;
  auto it = doc.find("network");
  if (it == doc.end() || it->is_null()) return net;
  const std::string p = "network";
  if (!r.open_object(*it, p, {"default", "intra_node", "intra_site", "inter_site", "site_links", "links"})) return net;
  const json& o = *it;
  // capacity_gbps is known everywhere so that a misplaced one is an error, not a warning.
  const auto plain = {"bandwidth_gbps", "latency_ms", "util", "capacity_gbps"};
  if (o.contains("default")) net.default_link = read_link_spec(r, o["default"], "network.default", plain);
  if (o.contains("intra_node")) net.intra_node = read_link_spec(r, o["intra_node"], "network.intra_node", plain);
  if (o.contains("intra_site")) net.intra_site = read_link_spec(r, o["intra_site"], "network.intra_site", plain);
  if (o.contains("inter_site"))
    net.inter_site = read_link_spec(r, o["inter_site"], "network.inter_site", plain, true);

  std::set<std::string> sites, ids;
  for (const auto& g : gpus) sites.insert(g.site), ids.insert(g.id);
  const auto directed = {"from", "to", "bandwidth_gbps", "latency_ms", "util", "capacity_gbps"};
  auto read_directed = [&](const char* key, const std::set<std::string>& names, const char* noun, auto add) {
    const json* list = r.array(o, p, key, false);
    if (!list) return;
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string lp = index_path(field_path(p, key), i);
      auto link = read_link_spec(r, (*list)[i], lp, directed, std::string(key) == "site_links");
      if (!(*list)[i].is_object()) continue;
      auto from = r.string((*list)[i], lp, "from", true);
      auto to = r.string((*list)[i], lp, "to", true);
      bool ok = link && from && to;
      for (auto [end, value] : {std::pair{"from", &from}, std::pair{"to", &to}}) {
        if (*value && !names.count(**value)) {
          r.error(field_path(lp, end), std::string("unknown ") + noun + " " + FieldReader::describe(**value) +
                                           " (known: " + list_names(names) + ")");
          ok = false;
        }
      }
      if (ok && std::string(key) == "links" && *from == *to) {
        r.error(lp + ".to", "must differ from `from` (a GPU needs no link to itself)");
        ok = false;
      }
      if (ok) add(*from, *to, *link);
    }
  };
  read_directed("site_links", sites, "site",
                [&](auto& f, auto& t, auto& l) { net.site_links.push_back({f, t, l}); });
  read_directed("links", ids, "GPU id", [&](auto& f, auto& t, auto& l) { net.links.push_back({f, t, l}); });
  return net;
}

void check_link_coverage(FieldReader& r, const NetworkSpec& net, const std::vector<Gpu>& gpus) {
  const auto table = resolve_links(net, gpus);
  const std::size_t n = gpus.size();
  std::size_t missing = 0;
  constexpr std::size_t kShown = 5;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j || table[i * n + j]) continue;
      if (++missing <= kShown) {
        r.error("network", "no link from " + gpus[i].id + " to " + gpus[j].id + " (site " +
                               FieldReader::describe(gpus[i].site) + " to " + FieldReader::describe(gpus[j].site) +
                               "); add network.default, network." +
                               (gpus[i].site == gpus[j].site ? "intra_site" : "inter_site") +
                               ", a site_links or a links entry");
      }
    }
  }
  if (missing > kShown)
    r.error("network", "... and " + std::to_string(missing - kShown) + " more GPU pairs without a link");
}

// search.replicas: 1 (one pipeline), an integer R (exactly R replicas) or "auto".
void read_replicas(FieldReader& r, const json& o, SearchSettings& s) {
  const auto it = o.find("replicas");
  if (it == o.end() || it->is_null()) return;
  if (it->is_string()) {
    if (it->get<std::string>() == "auto") s.replicas_auto = true;
    else r.error("search.replicas", "must be 1, an integer number of replicas or \"auto\", got " +
                                        FieldReader::describe(*it));
    return;
  }
  s.replicas = static_cast<int>(r.integer(o, "search", "replicas", false, 1, kMaxGpus).value_or(1));
}

SearchSettings read_search(FieldReader& r, const json& doc) {
  SearchSettings s;
  auto it = doc.find("search");
  if (it == doc.end() || it->is_null()) return s;
  const std::string p = "search";
  if (!r.open_object(*it, p,
                     {"population", "tournament", "elite", "local_search_rate", "crossover_fallback_rate", "boundary_shift", "parallelism",
                      "engine", "micro_batch_size", "replicas", "time_limit_s", "patience", "max_generations", "seed",
                      "rank_by"}))
    return s;
  const json& o = *it;
  s.population = static_cast<int>(r.integer(o, p, "population", false, 2, 10'000).value_or(s.population));
  s.tournament = static_cast<int>(r.integer(o, p, "tournament", false, 1, s.population).value_or(
      std::min(s.tournament, s.population)));
  s.elite = static_cast<int>(
      r.integer(o, p, "elite", false, 0, s.population - 1).value_or(std::min(s.elite, s.population - 1)));
  s.local_search_rate = r.number(o, p, "local_search_rate", false, Range::unit_closed).value_or(s.local_search_rate);
  s.crossover_fallback_rate =
      r.number(o, p, "crossover_fallback_rate", false, Range::unit_closed).value_or(s.crossover_fallback_rate);
  if (auto shift = r.string(o, p, "boundary_shift", false)) {
    if (*shift == "both") s.shift_both_ways = true;
    else if (*shift != "paper")
      r.error("search.boundary_shift", "must be \"paper\" or \"both\", got " + FieldReader::describe(*shift));
  }
  if (auto parallelism = r.string(o, p, "parallelism", false)) {
    if (*parallelism == "hybrid") s.parallelism = Parallelism::hybrid;
    else if (*parallelism != "pipeline")
      r.error("search.parallelism", "must be \"pipeline\" or \"hybrid\", got " + FieldReader::describe(*parallelism));
  }
  if (auto engine = r.string(o, p, "engine", false)) {
    if (auto e = engine_from_name(*engine)) s.engine = *e;
    else r.error("search.engine", "must be one of " + engine_names() + ", got " + FieldReader::describe(*engine));
  }
  if (auto mode = r.string(o, p, "micro_batch_size", false)) {
    if (*mode == "auto") s.micro_batch_auto = true;
    else if (*mode != "fixed")
      r.error("search.micro_batch_size", "must be \"fixed\" (the model's micro_batch_size) or \"auto\", got " +
                                             FieldReader::describe(*mode));
  }
  if (auto rank = r.string(o, p, "rank_by", false)) {
    if (auto parsed = rank_by_from_name(*rank)) s.rank_by = *parsed;
    else r.error("search.rank_by", "must be \"analytic\", \"simulated\" or \"simulated_overlapped\", got " +
                                       FieldReader::describe(*rank));
  }
  read_replicas(r, o, s);
  s.time_limit_s = r.number(o, p, "time_limit_s", false, Range::positive).value_or(s.time_limit_s);
  if (s.time_limit_s > 86400) {
    r.error("search.time_limit_s", "must be at most 86400 (one day), got " + FieldReader::describe(s.time_limit_s));
  }
  s.patience = static_cast<int>(r.integer(o, p, "patience", false, 1, 1'000'000'000).value_or(s.patience));
  s.max_generations =
      static_cast<int>(r.integer(o, p, "max_generations", false, 1, 1'000'000'000).value_or(s.max_generations));
  s.seed = static_cast<std::uint64_t>(r.integer(o, p, "seed", false, 0, kMaxSeed).value_or(1));
  return s;
}

json link_to_json(const LinkSpec& l) {
  json j = {{"bandwidth_gbps", l.bandwidth_gbps}, {"latency_ms", l.latency_ms}, {"util", l.util}};
  if (l.capacity_gbps > 0) j["capacity_gbps"] = l.capacity_gbps;
  return j;
}

}  // namespace

const char* rank_by_name(RankBy rank_by) {
  switch (rank_by) {
    case RankBy::analytic: return "analytic";
    case RankBy::simulated: return "simulated";
    case RankBy::simulated_overlapped: return "simulated_overlapped";
  }
  return "";
}

std::optional<RankBy> rank_by_from_name(const std::string& name) {
  for (RankBy r : {RankBy::analytic, RankBy::simulated, RankBy::simulated_overlapped})
    if (name == rank_by_name(r)) return r;
  return std::nullopt;
}

const char* precision_name(Precision precision) {
  switch (precision) {
    case Precision::fp16: return "fp16";
    case Precision::bf16: return "bf16";
    case Precision::fp32: return "fp32";
  }
  return "";
}

json parse_json_text(const std::string& text, const std::string& what) {
  return parse_json_document(text, what);  // json_text.hpp: every fault at a line and column
}

ParsedProblem parse_problem(const json& original) {
  FieldReader r;
  ParsedProblem out;
  Problem& pr = out.problem;
  TakenSources sources = take_figure_sources(original, r);  // figure_sources.hpp: notes the model never reads
  const json& document = sources.document_or(original);
  if (!r.open_object(document, "",
                     {"name", "description", "story", "model", "gpus", "network", "objective", "search", "sites",
                      "training", "version"}))
    throw InputError(r.errors());
  pr.name = r.string(document, "", "name", false).value_or("");
  pr.description = r.string(document, "", "description", false).value_or("");
  pr.story = r.string(document, "", "story", false).value_or("");
  pr.model = read_model(r, document);
  pr.gpus = read_gpus(r, document, pr.model.precision);
  pr.network = read_network(r, document, pr.gpus);
  pr.objective = read_objective(r, document);
  pr.search = read_search(r, document);
  pr.sites = read_sites(r, document, pr.gpus);
  pr.training = read_training(r, document);
  if (r.errors().empty()) check_link_coverage(r, pr.network, pr.gpus);
  if (r.errors().empty()) check_number_limits(r, pr);  // derived_checks.hpp: finite figures for every plan
  if (!r.errors().empty()) throw InputError(r.errors());
  attach_figure_sources(std::move(sources), pr);
  out.warnings = r.warnings();
  return out;
}

ParsedProblem parse_problem_text(const std::string& text) { return parse_problem(parse_json_text(text, "problem")); }

json problem_to_json(const Problem& pr) {
  json gpus = json::array();
  for (const auto& g : pr.gpus) {
    json j = {{"id", g.id}};
    if (!g.type.empty()) j["type"] = g.type;
    if (!g.site.empty()) j["site"] = g.site;
    if (!g.node.empty()) j["node"] = g.node;
    if (!g.host.empty()) j["host"] = g.host;
    if (g.device >= 0) j["device"] = g.device;
    j["peak_tflops"] = g.peak_tflops;
    j["compute_util"] = g.compute_util;
    j["memory_gib"] = g.memory_gib;
    j["memory_util"] = g.memory_util;
    j["idle_w"] = g.idle_w;
    j["active_w"] = g.active_w;
    if (g.price_per_hour > 0) j["price_per_hour"] = g.price_per_hour;
    gpus.push_back(j);
  }
  json network = json::object();
  if (pr.network.default_link) network["default"] = link_to_json(*pr.network.default_link);
  if (pr.network.intra_node) network["intra_node"] = link_to_json(*pr.network.intra_node);
  if (pr.network.intra_site) network["intra_site"] = link_to_json(*pr.network.intra_site);
  if (pr.network.inter_site) network["inter_site"] = link_to_json(*pr.network.inter_site);
  json site_links = json::array(), links = json::array();
  for (const auto& l : pr.network.site_links) {
    json j = link_to_json(l.link);
    j["from"] = l.from_site, j["to"] = l.to_site;
    site_links.push_back(j);
  }
  for (const auto& l : pr.network.links) {
    json j = link_to_json(l.link);
    j["from"] = l.from_gpu, j["to"] = l.to_gpu;
    links.push_back(j);
  }
  if (!site_links.empty()) network["site_links"] = site_links;
  if (!links.empty()) network["links"] = links;
  const auto& m = pr.model;
  const json objective = objective_to_json(pr.objective);
  const auto& s = pr.search;
  json out = {{"name", pr.name}};
  if (!pr.description.empty()) out["description"] = pr.description;
  if (!pr.story.empty()) out["story"] = pr.story;
  out["model"] = {{"hidden_size", m.hidden_size},           {"num_layers", m.num_layers},
                  {"seq_length", m.seq_length},             {"vocab_size", m.vocab_size},
                  {"micro_batch_size", m.micro_batch_size}, {"global_batch_size", m.global_batch_size},
                  {"precision", precision_name(m.precision)}};
  if (m.num_attention_heads > 0) out["model"]["num_attention_heads"] = m.num_attention_heads;
  out["gpus"] = gpus;
  out["network"] = network;
  out["objective"] = objective;
  out["search"] = {{"parallelism", s.parallelism == Parallelism::hybrid ? "hybrid" : "pipeline"},
                   {"population", s.population},
                   {"tournament", s.tournament},
                   {"elite", s.elite},
                   {"local_search_rate", s.local_search_rate},
                   {"crossover_fallback_rate", s.crossover_fallback_rate},
                   {"boundary_shift", s.shift_both_ways ? "both" : "paper"},
                   {"time_limit_s", s.time_limit_s},
                   {"patience", s.patience},
                   {"max_generations", s.max_generations},
                   {"seed", s.seed}};
  if (s.micro_batch_auto) out["search"]["micro_batch_size"] = "auto";
  if (s.rank_by != RankBy::analytic) out["search"]["rank_by"] = rank_by_name(s.rank_by);
  if (s.replicas_auto) out["search"]["replicas"] = "auto";
  else if (s.replicas != 1) out["search"]["replicas"] = s.replicas;
  if (s.engine != Engine::any) out["search"]["engine"] = engine_name(s.engine);
  if (!pr.sites.empty()) out["sites"] = sites_to_json(pr.sites);
  json training = json::object();
  if (pr.training.iterations) training["iterations"] = *pr.training.iterations;
  if (pr.training.sync_every != 1) training["sync_every"] = pr.training.sync_every;
  if (pr.training.sync_compression != 1) training["sync_compression"] = pr.training.sync_compression;
  if (!training.empty()) out["training"] = training;
  write_figure_sources(pr, out);
  return out;
}

}  // namespace geotrain

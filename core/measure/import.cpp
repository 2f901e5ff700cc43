#include "measure/import.hpp"

#include <algorithm>
#include <map>

#include "measure/link_figures.hpp"
#include "measure/link_merge.hpp"
#include "measure/measured_file.hpp"
#include "measure/merge_gpus.hpp"
#include "measure/pair_ends.hpp"
#include "model/input_error.hpp"
#include "model/json_text.hpp"
#include "model/message_list.hpp"
#include "model/problem_json.hpp"

namespace geotrain::measure {

namespace {

// The page's first problem's model, and a link every pair has until measured.
Document new_problem() {
  return Document::parse(std::string(R"({
    "name": "measured cluster",
    "model": {"hidden_size": 2048, "num_layers": 12, "seq_length": 2048, "vocab_size": 50258,
              "micro_batch_size": 8, "global_batch_size": 64, "precision": "fp16"},
    "gpus": [],
    "network": {"default": {"bandwidth_gbps": 10, "latency_ms": 1, "sources": {
      "bandwidth_gbps": "assumed: a placeholder for pairs nothing measured",
      "latency_ms": "assumed: a placeholder for pairs nothing measured"}}}
  })"));  // a std::string, as every other parse here: one parser in the module, not two
}

const char* const kNewProblemWarnings[] = {
    "model: a placeholder (the page's first example, 12 layers of hidden size 2048); give your model's",
    "network.default: a placeholder of 10 Gbps and 1 ms for every pair nothing measured",
};

struct Import {
  Document doc;
  ImportOptions options;
  ChangeLog log;
  LinkFigures links;
  std::vector<std::string> warnings;
  std::vector<FileReport> reports;

  std::string host_of(const ParsedFile& f) const { return options.host.empty() ? file_stem(f.file.name) : options.host; }
  void report(const ParsedFile& f, std::string summary) {
    reports.push_back({f.file.name, format_name(f.format), std::move(summary)});
  }
};

void import_csv(Import& im, const ParsedFile& f, const std::vector<SmiGpu>& rows) {
  const std::size_t before = PoolIndex::of(im.doc).gpus.size();
  merge_gpu_inventory(im.doc, {f.file.name, im.host_of(f), im.options.site}, rows, im.log, im.warnings);
  const std::size_t added = PoolIndex::of(im.doc).gpus.size() - before;
  im.report(f, "host " + im.host_of(f) + ": " + count_of(static_cast<std::int64_t>(rows.size()), "GPU") + " (" +
                   std::to_string(added) + " added, " + std::to_string(rows.size() - added) + " updated)");
}

// The host's GPU for each device index the file names.
std::vector<std::size_t> gpus_by_device(const PoolIndex& pool, const std::string& file, const std::string& host,
                                        const std::vector<int>& devices) {
  const auto on_host = pool.on_host(host);
  if (on_host.empty())
    throw InputError(at_file(file, "no GPU of the problem is on host " + quote_text(host) +
                                       ": import its nvidia-smi --query-gpu CSV too, or give --host"));
  std::vector<std::size_t> out;
  for (int device : devices) {
    auto it = std::find_if(on_host.begin(), on_host.end(), [&](std::size_t i) { return pool.gpus[i].device == device; });
    if (it == on_host.end())
      throw InputError(at_file(file, "host " + quote_text(host) + " has no GPU with device " + std::to_string(device) +
                                         " (its GPUs need their `device` index)"));
    out.push_back(*it);
  }
  return out;
}

void import_topo(Import& im, const ParsedFile& f, const TopoMatrix& m) {
  const PoolIndex pool = PoolIndex::of(im.doc);
  const std::string host = im.host_of(f);
  std::vector<int> devices(static_cast<std::size_t>(m.gpus));
  for (int k = 0; k < m.gpus; ++k) devices[static_cast<std::size_t>(k)] = k;
  const auto gpus = gpus_by_device(pool, f.file.name, host, devices);
  int pairs = 0, widest = 0;
  for (int a = 0; a < m.gpus; ++a)
    for (int b = 0; b < m.gpus; ++b) {
      const int n = m.links(a, b);
      if (a == b || n == 0) continue;
      const NvlinkSpeed speed = nvlink_speed(pool.gpus[gpus[a]].type);
      if (!speed.known && pairs == 0)
        im.warnings.push_back(f.file.name + ": NVLink speed of " + quote_text(pool.gpus[gpus[a]].type) +
                              " is not known; assumed 25 GB/s per link and direction (NVLink 3 and 4)");
      const std::string detail = "nvidia-smi topo NV" + std::to_string(n) + ": " + std::to_string(n) + " NVLinks x " +
                                 number_text(speed.gbps_per_link / 8) + " GB/s per direction";
      LinkFigure fig;
      fig.bandwidth_gbps = Measured{n * speed.gbps_per_link, imported(f.file.name, m.header_line, detail), f.file.name};
      fig.latency_ms = Measured{kNvlinkLatencyMs, "assumed: an NVLink hop's latency, 0.005 ms", f.file.name};
      im.links.gpu_pair(gpus[a], gpus[b], fig);
      ++pairs, widest = std::max(widest, n);
    }
  const int all = m.gpus * (m.gpus - 1);
  im.report(f, "host " + host + ": " + std::to_string(pairs) + " of " + std::to_string(all) + " GPU pairs on NVLink" +
                   (pairs ? " (up to NV" + std::to_string(widest) + ")" : ""));
}

void import_nccl(Import& im, const ParsedFile& f, const NcclAllReduce& run) {
  const AllReduceLink link = all_reduce_link(f.file.name, run);
  const PoolIndex pool = PoolIndex::of(im.doc);
  std::map<std::string, std::vector<int>> devices;  // by printed host name, in rank order
  for (const NcclRank& r : run.ranks) devices[r.host].push_back(r.device);
  std::vector<std::size_t> group;
  for (const auto& [printed, list] : devices) {
    // One host whose printed name the problem does not know: the file's host stands in.
    const bool stand_in = devices.size() == 1 && pool.on_host(printed).empty();
    const auto gpus = gpus_by_device(pool, f.file.name, stand_in ? im.host_of(f) : printed, list);
    group.insert(group.end(), gpus.begin(), gpus.end());
  }
  const std::string& site = pool.gpus[group.front()].site;
  for (std::size_t g : group)
    if (pool.gpus[g].site != site)
      throw InputError(at_file(f.file.name, "its GPUs are on sites " + quote_text(site) + " and " + quote_text(pool.gpus[g].site) +
                                                ": measure each site with all_reduce_perf and the sites with iperf3"));
  LinkFigure fig;
  fig.bandwidth_gbps = Measured{link.bandwidth_gbps, imported(f.file.name, link.bandwidth_line, link.detail), f.file.name};
  fig.latency_ms = Measured{link.latency_ms, imported(f.file.name, link.latency_line, link.detail), f.file.name};
  const bool one_node = devices.size() == 1;
  for (std::size_t a : group)
    for (std::size_t b : group)
      if (a != b && (one_node || pool.gpus[a].node_name() != pool.gpus[b].node_name())) im.links.gpu_pair(a, b, fig);
  im.report(f, count_of(link.ranks, "GPU") + " on " + count_of(static_cast<std::int64_t>(devices.size()), "host") + ": " +
                   number_text(link.bandwidth_gbps) + " Gbps, " + number_text(link.latency_ms) + " ms per hop");
}

// A figure between two ends: their site pair, or their GPUs' pairs on one site.
void place_pair(Import& im, const std::string& file, const PairEnd& from, const PairEnd& to, const LinkFigure& fig) {
  if (from.site != to.site) return im.links.site_pair(from.site, to.site, fig, im.warnings);
  if (from.kind == PairEnd::Kind::site || to.kind == PairEnd::Kind::site)
    throw InputError(at_file(file, "both ends (" + quote_text(from.name) + ", " + quote_text(to.name) + ") are on site " +
                                       quote_text(from.site) + ": name two hosts or GPUs of it"));
  bool any = false;
  for (std::size_t a : from.gpus)
    for (std::size_t b : to.gpus)
      if (a != b) im.links.gpu_pair(a, b, fig), any = true;
  if (!any) throw InputError(at_file(file, "both ends are " + quote_text(from.name) + ": a link needs two places"));
}

void import_iperf(Import& im, const ParsedFile& f, const IperfResult& r) {
  const PoolIndex pool = PoolIndex::of(im.doc);
  const PairEnds ends = pair_ends(pool, f.file.name, im.options.host, r.client_names, r.server_names);
  const PairEnd& sender = r.reverse ? ends.to : ends.from;
  const PairEnd& receiver = r.reverse ? ends.from : ends.to;
  const auto figure = [&](double gbps, const PairEnd& a, const PairEnd& b) {
    LinkFigure fig;
    fig.bandwidth_gbps = Measured{gbps, imported(f.file.name, 0, "iperf3 " + r.protocol + " " + number_text(gbps) +
                                                                      " Gbps from " + a.name + " to " + b.name),
                                  f.file.name};
    if (r.min_rtt_ms)
      fig.latency_if_new = Measured{*r.min_rtt_ms / 2, imported(f.file.name, 0, "iperf3's smallest round trip " +
                                                                                     number_text(*r.min_rtt_ms) + " ms, half each way"),
                                    f.file.name};
    return fig;
  };
  place_pair(im, f.file.name, sender, receiver, figure(r.forward_gbps, sender, receiver));
  std::string summary = sender.name + " -> " + receiver.name + ": " + number_text(r.forward_gbps) + " Gbps";
  if (r.bidir_reverse_gbps) {
    place_pair(im, f.file.name, receiver, sender, figure(*r.bidir_reverse_gbps, receiver, sender));
    summary += ", back " + number_text(*r.bidir_reverse_gbps) + " Gbps";
  }
  im.report(f, summary + " (" + r.protocol + ")");
}

void import_ping(Import& im, const ParsedFile& f, const PingSummary& p) {
  const PoolIndex pool = PoolIndex::of(im.doc);
  const PairEnds ends = pair_ends(pool, f.file.name, im.options.host, {}, {p.target, p.address});
  LinkFigure fig;
  fig.latency_ms = Measured{p.one_way_ms(), imported(f.file.name, p.line, "ping average round trip " +
                                                                           number_text(p.avg_ms) + " ms, half each way"),
                            f.file.name};
  place_pair(im, f.file.name, ends.from, ends.to, fig);
  place_pair(im, f.file.name, ends.to, ends.from, fig);
  im.report(f, ends.from.name + " <-> " + ends.to.name + ": " + number_text(p.one_way_ms()) + " ms each way");
}

int stage_of(ToolFormat format) {
  switch (format) {
    case ToolFormat::nvidia_smi_csv: return 0;
    case ToolFormat::nvidia_smi_topo: return 1;
    case ToolFormat::nccl_all_reduce: return 2;
    default: return 3;
  }
}

void check_merged(const Document& doc) {
  try {
    parse_problem(nlohmann::json::parse(doc.dump()));
  } catch (const InputError& e) {
    std::vector<std::string> messages;
    for (const auto& m : e.messages()) messages.push_back("the imported problem: " + m);
    throw InputError(messages);
  }
}

}  // namespace

ImportResult import_measurements(const std::string& problem_text, const std::vector<MeasuredFile>& files,
                                 const ImportOptions& options) {
  Import im;
  im.options = options;
  if (problem_text.empty()) {
    im.doc = new_problem();
    im.warnings.assign(std::begin(kNewProblemWarnings), std::end(kNewProblemWarnings));
  } else {
    // Any JSON object: a file holding the model alone is a fine start; the merged problem is checked whole.
    if (!parse_json_document(problem_text, "the problem to import into").is_object())
      throw InputError("the problem to import into: must be a JSON object");
    im.doc = Document::parse(problem_text);
  }
  if (files.empty()) throw InputError("import: no files to read");
  std::vector<ParsedFile> parsed;
  std::vector<std::string> faults;
  for (const MeasuredFile& file : files) {
    try {
      parsed.push_back(parse_measured_file(file));
    } catch (const InputError& e) {
      faults.insert(faults.end(), e.messages().begin(), e.messages().end());
    }
  }
  if (!faults.empty()) throw InputError(faults);
  std::stable_sort(parsed.begin(), parsed.end(),
                   [](const ParsedFile& a, const ParsedFile& b) { return stage_of(a.format) < stage_of(b.format); });
  bool links_applied = false;
  for (const ParsedFile& f : parsed) {
    if (stage_of(f.format) == 3 && !links_applied) {  // node figures before the pairs, whose ends they may name
      im.links.apply(im.doc, im.log);
      im.links = LinkFigures();
      links_applied = true;
    }
    std::visit(
        [&](const auto& m) {
          using T = std::decay_t<decltype(m)>;
          if constexpr (std::is_same_v<T, std::vector<SmiGpu>>) import_csv(im, f, m);
          else if constexpr (std::is_same_v<T, TopoMatrix>) import_topo(im, f, m);
          else if constexpr (std::is_same_v<T, NcclAllReduce>) import_nccl(im, f, m);
          else if constexpr (std::is_same_v<T, IperfResult>) import_iperf(im, f, m);
          else import_ping(im, f, m);
        },
        f.measurement);
  }
  im.links.apply(im.doc, im.log);
  check_merged(im.doc);
  return {std::move(im.doc), std::move(im.log.changes()), std::move(im.warnings), std::move(im.reports)};
}

}  // namespace geotrain::measure

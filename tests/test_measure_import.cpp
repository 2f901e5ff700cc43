// geotrain import: each tool's figures land where they belong (and no wider),
// with their sources; the merged problem is valid, or nothing is imported.
#include <gtest/gtest.h>

#include "measure/import.hpp"
#include "measure/link_figures.hpp"
#include "measure/nccl_all_reduce.hpp"
#include "measure/pair_ends.hpp"
#include "measured_fixtures.hpp"
#include "model/problem_json.hpp"

namespace geotrain {
namespace {

using measure::Document;
using measure::MeasuredFile;
using testing::example_file;
using testing::fixture;
using testing::refused_with;

// A model-only start, as examples/measured/model.json is.
const std::string kModel = R"({"name": "m", "model": {"hidden_size": 1024, "num_layers": 8, "seq_length": 1024,
  "vocab_size": 1000, "micro_batch_size": 1, "global_batch_size": 8},
  "network": {"default": {"bandwidth_gbps": 10, "latency_ms": 1}}})";

MeasuredFile named(MeasuredFile file, const std::string& name) {
  file.name = name;
  return file;
}

measure::ImportResult import(const std::string& into, const std::vector<MeasuredFile>& files, std::string site = "") {
  return measure::import_measurements(into, files, {"", std::move(site)});
}

TEST(ImportGpusTest, ACsvBringsTheHostsGpusWithTypeMemoryPowerAndSources) {
  const auto r = import(kModel, {named(fixture("a100-node.smi.csv"), "node-a.smi.csv")}, "east");
  const Document& g = r.problem["gpus"][3];
  EXPECT_EQ(g["id"], "node-a-g3");
  EXPECT_EQ(g["type"], "A100-SXM-80GB");
  EXPECT_EQ(g["site"], "east");
  EXPECT_EQ(g["node"], "node-a");
  EXPECT_EQ(g["host"], "node-a");
  EXPECT_EQ(g["device"], 3);
  EXPECT_EQ(g["memory_gib"], 80.0);  // 81920 MiB / 1024
  EXPECT_EQ(g["active_w"], 400.0);
  EXPECT_FALSE(g.contains("peak_tflops"));  // the catalogue's, for the model's precision
  EXPECT_EQ(g["sources"]["memory_gib"], "imported: node-a.smi.csv line 5 (nvidia-smi memory.total 81920 MiB)");
  EXPECT_EQ(g["sources"]["active_w"], "imported: node-a.smi.csv line 5 (nvidia-smi power.limit 400 W)");
  // One "added" change per GPU; a new problem's placeholders are said.
  EXPECT_EQ(r.changes.size(), 8u);
  EXPECT_EQ(r.changes[0].path, "gpus[0]");
  EXPECT_EQ(r.changes[0].what, "added");
  const auto fresh = import("", {named(fixture("a100-node.smi.csv"), "node-a.smi.csv")});
  EXPECT_EQ(fresh.warnings.size(), 2u);
  EXPECT_EQ(fresh.problem["network"]["default"]["bandwidth_gbps"], 10);
}

TEST(ImportGpusTest, ACardTheCatalogueLacksGetsItsDriverNameAndTheIdleRule) {
  // Unknown type and no power limit: the merged problem lacks peak_tflops, idle_w and active_w.
  const auto errors = testing::input_errors([] { import("", {named(fixture("not-in-catalogue.smi.csv"), "box.csv")}); });
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(errors[0], "the imported problem: gpus[0].peak_tflops: required (type \"NVIDIA GeForce RTX 5070 Ti\" "
                       "is not in the built-in catalogue)");
  // With a power limit, idle_w is 15% of it (the paper's rule), marked assumed.
  const std::string csv = "index, name, memory.total [MiB], power.limit [W]\n0, NVIDIA GeForce RTX 5070 Ti, 16303 MiB, 300.00 W\n";
  Document into = Document::parse(kModel);
  into["gpus"] = Document::parse(R"([{"id": "box-g0", "peak_tflops": 88, "host": "box"}])");
  const auto r = import(into.dump(), {{"box.csv", csv}});
  const Document& g = r.problem["gpus"][0];
  EXPECT_EQ(g["type"], "NVIDIA GeForce RTX 5070 Ti");
  EXPECT_EQ(g["peak_tflops"], 88);  // typed, kept
  EXPECT_EQ(g["idle_w"], 45.0);     // 0.15 x 300
  EXPECT_EQ(g["sources"]["idle_w"], "assumed: 15% of power.limit, the paper's rule (Sect. 6.7)");
}

TEST(ImportGpusTest, AnExistingGpuIsUpdatedAndAChangedTypeDropsTheOldTypesFigures) {
  Document into = Document::parse(kModel);
  into["gpus"] = Document::parse(R"([
    {"id": "a", "type": "V100-16GB", "host": "node-a", "device": 0, "peak_tflops": 125, "idle_w": 45, "compute_util": 0.4},
    {"id": "b", "type": "A100-SXM-80GB", "host": "node-a", "device": 9, "compute_util": 0.41}])");
  into["network"] = {{"default", {{"bandwidth_gbps", 10}, {"latency_ms", 1}}}};
  const auto r = import(into.dump(), {named(fixture("a100-node.smi.csv"), "node-a.smi.csv")});
  const Document& a = r.problem["gpus"][0];
  EXPECT_EQ(a["id"], "a");
  EXPECT_EQ(a["type"], "A100-SXM-80GB");
  EXPECT_FALSE(a.contains("peak_tflops"));  // the V100's 125 would have won over the A100's catalogue figure
  EXPECT_FALSE(a.contains("idle_w"));
  EXPECT_EQ(a["compute_util"], 0.4);  // not the import's to change
  // Devices 1-7 are new; a new GPU takes the compute_util of one of its type.
  EXPECT_EQ(r.problem["gpus"].size(), 9u);
  EXPECT_EQ(r.problem["gpus"][2]["id"], "node-a-g1");
  EXPECT_EQ(r.problem["gpus"][2]["compute_util"], 0.41);
  EXPECT_EQ(r.problem["gpus"][2]["sources"]["compute_util"], "assumed: as b, a GPU of the same type");
  // b (device 9) is on the host but not in the file: kept, with a warning.
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_EQ(r.warnings.back(), "node-a.smi.csv: gpus[1] (b) is on host node-a but not in the file; kept");
}

TEST(ImportLinksTest, TopoOfEveryNodeBecomesTheIntraNodeLink) {
  // NV12 between every pair of an A100 node: 12 links x 25 GB/s x 8 = 2400 Gbps, latency assumed 0.005 ms.
  const auto r = import(kModel, {named(fixture("a100-node.smi.csv"), "node-a.smi.csv"),
                                 named(fixture("hgx-a100.topo.txt"), "node-a.topo.txt")});
  const Document& link = r.problem["network"]["intra_node"];
  EXPECT_EQ(link["bandwidth_gbps"], 2400.0);
  EXPECT_EQ(link["latency_ms"], 0.005);
  EXPECT_EQ(link["sources"]["bandwidth_gbps"],
            "imported: node-a.topo.txt line 1 (nvidia-smi topo NV12: 12 NVLinks x 25 GB/s per direction)");
  EXPECT_EQ(link["sources"]["latency_ms"], "assumed: an NVLink hop's latency, 0.005 ms");
  EXPECT_FALSE(r.problem["network"].contains("links"));
}

TEST(ImportLinksTest, NvlinkBridgesOfSomePairsBecomeLinksEntriesOnly) {
  // RTX 3090: 0-1 and 2-3 bridged (NV4 = 4 x 14.0625 GB/s = 450 Gbps); the PCIe pairs keep network.default.
  Document into = Document::parse(kModel);
  into["network"] = {{"default", {{"bandwidth_gbps", 64}, {"latency_ms", 0.02}}}};
  const std::string csv = "index, name, memory.total [MiB], power.limit [W]\n" + std::string() +
                          "0, NVIDIA GeForce RTX 3090, 24576 MiB, 350.00 W\n1, NVIDIA GeForce RTX 3090, 24576 MiB, 350.00 W\n"
                          "2, NVIDIA GeForce RTX 3090, 24576 MiB, 350.00 W\n3, NVIDIA GeForce RTX 3090, 24576 MiB, 350.00 W\n";
  const auto r = import(into.dump(), {{"lab.csv", csv}, named(fixture("rtx3090-bridges.topo.txt"), "lab.topo.txt")});
  const Document& links = r.problem["network"]["links"];
  ASSERT_EQ(links.size(), 4u);
  EXPECT_EQ(links[0]["from"], "lab-g0");
  EXPECT_EQ(links[0]["to"], "lab-g1");
  EXPECT_EQ(links[0]["bandwidth_gbps"], 450.0);
  EXPECT_FALSE(r.problem["network"].contains("intra_node"));
  const ParsedProblem parsed = parse_problem(nlohmann::json::parse(r.problem.dump()));
  EXPECT_EQ(resolve_link(parsed.problem.network, parsed.problem.gpus[1], parsed.problem.gpus[2])->link.bandwidth_gbps, 64);
}

TEST(ImportLinksTest, AllReduceBusBandwidthIsTheRingsLink) {
  // 4 ranks; 1 GiB at busbw 100.00 GB/s and 8 B in 30 us. Bandwidth = 100 x 8 = 800 Gbps.
  // Latency: t = 2(p-1)(Lat + X/(p Bw)) at X = 8 B, p = 4, Bw = 1e11 B/s:
  // Lat = 30e-6 / 6 - 8 / (4 x 1e11) = 5e-6 - 2e-11 s = 0.00499998 ms.
  const std::string text =
      "#  Rank  0 Group  0 Pid   101 on     box device  0 [0000:01:00] NVIDIA A100-SXM4-80GB\n"
      "#  Rank  1 Group  0 Pid   102 on     box device  1 [0000:02:00] NVIDIA A100-SXM4-80GB\n"
      "#  Rank  2 Group  0 Pid   103 on     box device  2 [0000:03:00] NVIDIA A100-SXM4-80GB\n"
      "#  Rank  3 Group  0 Pid   104 on     box device  3 [0000:04:00] NVIDIA A100-SXM4-80GB\n"
      "#       size         count      type   redop    root     time   algbw   busbw  #wrong\n"
      "           8             2     float     sum      -1    30.00    0.00    0.00       0\n"
      "  1073741824     268435456     float     sum      -1    16106   66.67  100.00       0\n";
  const auto link = measure::all_reduce_link("box.nccl.txt", measure::parse_nccl_all_reduce({"box.nccl.txt", text}));
  EXPECT_EQ(link.bandwidth_gbps, 800);
  EXPECT_DOUBLE_EQ(link.latency_ms, 0.00499998);
  EXPECT_EQ(link.bandwidth_line, 7u);
  EXPECT_EQ(link.latency_line, 6u);
  EXPECT_TRUE(refused_with([] { measure::all_reduce_link("one.txt", measure::parse_nccl_all_reduce(fixture("one-rank.nccl.txt"))); },
                           "one.txt: one rank: an all-reduce over one GPU crosses no link"));
}

TEST(ImportLinksTest, AllReduceWinsOverTopoAndTwoNodesMakeTheSitesOwnLink) {
  const auto r = import(kModel, {example_file("cloud-1.smi.csv"), example_file("cloud-2.smi.csv"),
                                 example_file("cloud-1.topo.txt"), example_file("cloud-2.topo.txt"),
                                 example_file("cloud-1.nccl.txt"), example_file("cloud.nccl.txt")},
                        "cloud");
  const Document& net = r.problem["network"];
  // Every same-node pair measured: 56 pairs (cloud-1) have all_reduce_perf's figure (busbw 234.94
  // GB/s: 1879.52 Gbps), which won over topo's, and 56 (cloud-2) topo's NV12 (2400 Gbps). Of equals
  // the first pair's figure is intra_node, the other 56 are links entries.
  EXPECT_EQ(net["intra_node"]["bandwidth_gbps"], 234.94 * 8);
  ASSERT_EQ(net["links"].size(), 56u);
  EXPECT_EQ(net["links"][0]["bandwidth_gbps"], 2400.0);
  // Every cross-node pair of site cloud measured by the 16-rank run: site_links cloud -> cloud.
  ASSERT_EQ(net["site_links"].size(), 1u);
  EXPECT_EQ(net["site_links"][0]["from"], "cloud");
  EXPECT_EQ(net["site_links"][0]["to"], "cloud");
  EXPECT_EQ(net["site_links"][0]["bandwidth_gbps"], 188.32 * 8);
}

TEST(ImportLinksTest, PairFilesBetweenSitesUpdateOrAddSiteLinks) {
  Document into = Document::parse(kModel);
  into["gpus"] = Document::parse(R"([
    {"id": "l0", "type": "RTX-3090", "site": "lab", "host": "lab-1"},
    {"id": "c0", "type": "A100-SXM-80GB", "site": "cloud", "host": "cloud-1"}])");
  into["network"] = Document::parse(R"({"inter_site": {"bandwidth_gbps": 1, "latency_ms": 5, "util": 0.8},
    "site_links": [{"from": "lab", "to": "cloud", "bandwidth_gbps": 1, "latency_ms": 9, "util": 0.9}]})");
  const auto r = import(into.dump(), {example_file("lab-cloud.iperf.json")});
  const Document& sl = r.problem["network"]["site_links"];
  ASSERT_EQ(sl.size(), 2u);
  // The existing entry: measured bandwidth, util 1 (a measured rate is the effective one), latency kept.
  EXPECT_EQ(sl[0]["bandwidth_gbps"], 0.739891);
  EXPECT_EQ(sl[0]["util"], 1);
  EXPECT_EQ(sl[0]["latency_ms"], 9);
  // --bidir's other direction: a new entry; its latency from iperf3's smallest round trip
  // (20480 us, half each way: 10.24 ms), since nothing else measured one.
  EXPECT_EQ(sl[1]["from"], "cloud");
  EXPECT_EQ(sl[1]["bandwidth_gbps"], 0.910842);
  EXPECT_EQ(sl[1]["latency_ms"], 10.24);
  EXPECT_EQ(sl[1]["sources"]["bandwidth_gbps"], "imported: lab-cloud.iperf.json (iperf3 TCP 0.910842 Gbps from cloud to lab)");
  // With ping as well, ping's latency (20.712 / 2) wins for both directions.
  const auto both = import(into.dump(), {example_file("lab-cloud.iperf.json"), example_file("lab-cloud.ping.txt")});
  for (const auto& e : both.problem["network"]["site_links"]) EXPECT_EQ(e["latency_ms"], 10.356);
}

TEST(ImportLinksTest, ANewLinkTakesTheFigureItLacksFromTheLinkInUseToday) {
  Document into = Document::parse(kModel);
  into["gpus"] = Document::parse(R"([{"id": "a", "type": "A100-SXM-80GB", "site": "A"},
                                     {"id": "b", "type": "A100-SXM-80GB", "site": "B"}])");
  into["network"] = Document::parse(R"({"inter_site": {"bandwidth_gbps": 5, "latency_ms": 20, "util": 0.5}})");
  const auto r = import(into.dump(), {named(fixture("linux.ping.txt"), "A-B.ping.txt")});
  const Document& sl = r.problem["network"]["site_links"];
  ASSERT_EQ(sl.size(), 2u);
  EXPECT_EQ(sl[0]["latency_ms"], 0.2015);
  EXPECT_EQ(sl[0]["bandwidth_gbps"], 5);
  EXPECT_EQ(sl[0]["util"], 0.5);
  EXPECT_EQ(sl[0]["sources"]["bandwidth_gbps"], "assumed: as network.inter_site");
  // With no link at all, there is nothing to take it from.
  into["network"] = Document::object();
  EXPECT_TRUE(refused_with([&] { import(into.dump(), {named(fixture("linux.ping.txt"), "A-B.ping.txt")}); },
                           "A-B.ping.txt: no bandwidth for the new link site A -> B, and no link it uses today to take one "
                           "from: import an iperf3 result for it, or add network.default"));
}

// capacity_gbps (replicas.md) is a link's own, never inherited: a site pair that moves from
// inter_site to a new site_links entry keeps the pipe's capacity; an existing entry keeps its own.
TEST(ImportLinksTest, ASitePipesCapacityAndTheReplicaFieldsSurviveAnImport) {
  Document into = Document::parse(kModel);
  into["gpus"] = Document::parse(R"([
    {"id": "l0", "type": "RTX-3090", "site": "lab", "host": "lab-1"},
    {"id": "c0", "type": "A100-SXM-80GB", "site": "cloud", "host": "cloud-1"}])");
  into["network"] = Document::parse(R"({"default": {"bandwidth_gbps": 10, "latency_ms": 1},
    "inter_site": {"bandwidth_gbps": 1, "latency_ms": 5, "capacity_gbps": 4},
    "site_links": [{"from": "lab", "to": "cloud", "bandwidth_gbps": 1, "latency_ms": 9, "capacity_gbps": 2}]})");
  into["search"] = Document::parse(R"({"replicas": "auto"})");
  into["training"] = Document::parse(R"({"sync_every": 4, "sync_compression": 0.25})");
  const auto r = import(into.dump(), {example_file("lab-cloud.iperf.json")});
  const Document& sl = r.problem["network"]["site_links"];
  ASSERT_EQ(sl.size(), 2u);
  EXPECT_EQ(sl[0]["bandwidth_gbps"], 0.739891);  // measured
  EXPECT_EQ(sl[0]["capacity_gbps"], 2);          // its own, untouched
  EXPECT_FALSE(sl[0]["sources"].contains("capacity_gbps"));
  EXPECT_EQ(sl[1]["from"], "cloud");              // new: cloud -> lab used inter_site and its capacity 4
  EXPECT_EQ(sl[1]["capacity_gbps"], 4);
  EXPECT_EQ(sl[1]["sources"]["capacity_gbps"], "assumed: as network.inter_site");
  EXPECT_EQ(r.problem["network"]["inter_site"]["capacity_gbps"], 4);
  EXPECT_EQ(r.problem["search"]["replicas"], "auto");
  EXPECT_EQ(r.problem["training"]["sync_every"], 4);
  EXPECT_EQ(r.problem["training"]["sync_compression"], 0.25);
  const ParsedProblem parsed = parse_problem(nlohmann::json::parse(r.problem.dump()));
  EXPECT_EQ(parsed.problem.network.site_links[1].link.capacity_gbps, 4);
}

TEST(PairEndsTest, TheStemIsCutWhereBothSidesAreKnownNames) {
  Document doc = Document::parse(R"({"gpus": [
    {"id": "g1", "host": "gpu-node-1", "site": "x"}, {"id": "g2", "host": "gpu-node-2", "site": "x"},
    {"id": "g3", "host": "gpu", "site": "y"}]})");
  const auto pool = measure::PoolIndex::of(doc);
  const auto ends = measure::pair_ends(pool, "gpu-node-1-gpu-node-2.ping.txt", "", {}, {});
  EXPECT_EQ(ends.from.name, "gpu-node-1");
  EXPECT_EQ(ends.to.name, "gpu-node-2");
  EXPECT_EQ(ends.to.kind, measure::PairEnd::Kind::host);
  // Without a cut, the stem names the sender and the tool the other end.
  const auto named_by_tool = measure::pair_ends(pool, "gpu-node-1.iperf.json", "", {}, {"nowhere", "gpu-node-2"});
  EXPECT_EQ(named_by_tool.to.name, "gpu-node-2");
  EXPECT_EQ(measure::pair_ends(pool, "anything.json", "gpu", {}, {"x"}).to.kind, measure::PairEnd::Kind::site);
  EXPECT_TRUE(refused_with([&] { measure::pair_ends(pool, "a.ping.txt", "", {}, {"10.0.0.9"}); },
                           "a.ping.txt: cannot tell the end it ran on: none of \"a\" is a GPU id, host, node or site of "
                           "the problem (name the file FROM-TO.ext, or give --host)"));
}

TEST(ImportTest, AllOrNothingWithEveryFilesFault) {
  const auto errors = testing::input_errors([] {
    import(kModel, {fixture("a100-node.smi.csv"), fixture("truncated.smi.csv"), fixture("nan.ping.txt")});
  });
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0], "truncated.smi.csv line 3: 3 fields where the header has 4 (a line cut short?)");
  EXPECT_EQ(errors[1], "nan.ping.txt line 10: a round-trip time must be a number of ms from 0 to 1e6, got \"nan\"");
  EXPECT_TRUE(refused_with([] { import("[1]", {fixture("a100-node.smi.csv")}); },
                           "the problem to import into: must be a JSON object"));
  EXPECT_TRUE(refused_with([] { import(kModel, {named(fixture("hgx-a100.topo.txt"), "ghost.topo.txt")}); },
                           "ghost.topo.txt: no GPU of the problem is on host \"ghost\": import its nvidia-smi --query-gpu "
                           "CSV too, or give --host"));
}

TEST(ImportTest, TheExampleClusterImportsAndValidates) {
  const auto lab = measure::import_measurements(testing::read_text(std::string(GEOTRAIN_EXAMPLES_DIR) + "/measured/model.json"),
                                                {example_file("lab-1.smi.csv"), example_file("lab-1.topo.txt"),
                                                 example_file("lab-1.nccl.txt")},
                                                {"", "lab"});
  const auto all = measure::import_measurements(
      lab.problem.dump(),
      {example_file("cloud-1.smi.csv"), example_file("cloud-2.smi.csv"), example_file("cloud-1.topo.txt"),
       example_file("cloud-2.topo.txt"), example_file("cloud.nccl.txt"),
       example_file("lab-cloud.iperf.json"), example_file("lab-cloud.ping.txt")},
      {"", "cloud"});
  // The lab's import made its PCIe ring intra_node; the cloud's, where every node now counts as
  // measured (the lab's figure came from an import too), lifts NV12 (112 pairs) there and leaves
  // the lab's 12 pairs as links entries with their own figure and source.
  const Document& net = all.problem["network"];
  EXPECT_EQ(lab.problem["network"]["intra_node"]["bandwidth_gbps"], 83.76);
  EXPECT_EQ(net["intra_node"]["bandwidth_gbps"], 2400.0);
  ASSERT_EQ(net["links"].size(), 12u);
  EXPECT_EQ(net["links"][0]["from"], "lab-1-g0");
  EXPECT_EQ(net["links"][0]["bandwidth_gbps"], 83.76);
  EXPECT_EQ(net["links"][0]["sources"]["bandwidth_gbps"],
            "imported: lab-1.nccl.txt line 41 (all_reduce_perf over 4 GPUs: busbw 10.47 GB/s at 1073741824 B, 16.4 us at 8 B)");
  const ParsedProblem parsed = parse_problem(nlohmann::json::parse(all.problem.dump()));
  EXPECT_EQ(parsed.problem.gpus.size(), 20u);
  const auto& g = parsed.problem.gpus;
  EXPECT_EQ(resolve_link(parsed.problem.network, g[0], g[1])->link.bandwidth_gbps, 83.76);    // lab, as measured
  EXPECT_EQ(resolve_link(parsed.problem.network, g[4], g[5])->link.bandwidth_gbps, 2400);      // cloud-1: NV12
  EXPECT_EQ(resolve_link(parsed.problem.network, g[4], g[12])->link.bandwidth_gbps, 1506.56);  // cloud-1 to cloud-2
  EXPECT_EQ(resolve_link(parsed.problem.network, g[0], g[4])->link.bandwidth_gbps, 0.739891);  // lab to cloud
  EXPECT_EQ(parsed.problem.gpus[0].sources.at("memory_gib"), "imported: lab-1.smi.csv line 2 (nvidia-smi memory.total 24576 MiB)");
  EXPECT_EQ(all.files.size(), 7u);
}

}  // namespace
}  // namespace geotrain

// Link resolution: the most specific declaration wins (links > site_links >
// intra_site / inter_site > default), links are directed, later duplicates win.
//
// Every level gets its own bandwidth so that a resolved link shows where it came from:
//   default 1 Gbps, intra_site 2, inter_site 3, site_links A -> B 4, links a0 -> b0 5.
// GPUs: a0, a1 at site A; b0 at site B; c0 at site C.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/cost_model.hpp"
#include "model/input_error.hpp"
#include "model/network.hpp"
#include "model/problem_json.hpp"

namespace geotrain {
namespace {

enum { a0, a1, b0, c0, kGpus };

std::vector<Gpu> sited_gpus() {
  std::vector<Gpu> gpus(kGpus);
  const char* ids[] = {"a0", "a1", "b0", "c0"};
  const char* sites[] = {"A", "A", "B", "C"};
  for (int i = 0; i < kGpus; ++i) gpus[i].id = ids[i], gpus[i].site = sites[i];
  return gpus;
}

LinkSpec gbps(double bandwidth) { return LinkSpec{bandwidth, 1, 1}; }

NetworkSpec every_level() {
  NetworkSpec net;
  net.default_link = gbps(1);
  net.intra_site = gbps(2);
  net.inter_site = gbps(3);
  net.site_links = {{"A", "B", gbps(4)}};
  net.links = {{"a0", "b0", gbps(5)}};
  return net;
}

struct Resolved {
  std::vector<std::optional<ResolvedLink>> table;
  const std::optional<ResolvedLink>& at(int from, int to) const { return table[from * kGpus + to]; }
};

Resolved resolve(const NetworkSpec& net) { return {resolve_links(net, sited_gpus())}; }

#define EXPECT_LINK(resolved, from, to, expected_source, bandwidth)                    \
  do {                                                                         \
    const Resolved& table_ = (resolved); /* keeps a temporary alive */        \
    const auto& slot = table_.at(from, to);                                   \
    ASSERT_TRUE(slot.has_value()) << #from " -> " #to;                         \
    EXPECT_EQ(slot->source, expected_source) << #from " -> " #to;                       \
    EXPECT_EQ(slot->link.bandwidth_gbps, bandwidth) << #from " -> " #to;       \
  } while (0)

TEST(Links, GpuLinkBeatsSiteLink) {
  // a0 -> b0 has both a links entry (5) and the A -> B site link (4).
  EXPECT_LINK(resolve(every_level()), a0, b0, LinkSource::gpu_link, 5);
}

TEST(Links, SiteLinkBeatsInterSite) {
  // a1 -> b0: no links entry; the A -> B site link (4) beats inter_site (3).
  EXPECT_LINK(resolve(every_level()), a1, b0, LinkSource::site_link, 4);
}

TEST(Links, SiteLinkBeatsIntraSite) {
  NetworkSpec net = every_level();
  net.site_links.push_back({"A", "A", gbps(6)});
  EXPECT_LINK(resolve(net), a0, a1, LinkSource::site_link, 6);
}

TEST(Links, IntraAndInterSiteBeatTheDefault) {
  const Resolved r = resolve(every_level());
  EXPECT_LINK(r, a0, a1, LinkSource::intra_site, 2);
  EXPECT_LINK(r, a1, a0, LinkSource::intra_site, 2);
  EXPECT_LINK(r, a0, c0, LinkSource::inter_site, 3);
  EXPECT_LINK(r, c0, b0, LinkSource::inter_site, 3);
}

TEST(Links, DefaultFillsWhatIntraOrInterSiteLeaveOut) {
  NetworkSpec net = every_level();
  net.intra_site.reset();
  EXPECT_LINK(resolve(net), a0, a1, LinkSource::default_link, 1);
  EXPECT_LINK(resolve(net), a0, c0, LinkSource::inter_site, 3);
  net = every_level();
  net.inter_site.reset();
  EXPECT_LINK(resolve(net), a0, c0, LinkSource::default_link, 1);
  EXPECT_LINK(resolve(net), a0, a1, LinkSource::intra_site, 2);
}

TEST(Links, SiteLinksAreDirected) {
  // A -> B does not give B -> A: b0 -> a0 and b0 -> a1 fall to inter_site.
  const Resolved r = resolve(every_level());
  EXPECT_LINK(r, b0, a0, LinkSource::inter_site, 3);
  EXPECT_LINK(r, b0, a1, LinkSource::inter_site, 3);
}

TEST(Links, GpuLinksAreDirected) {
  // a0 -> b0 does not give b0 -> a0; nor does it touch a1 -> b0.
  NetworkSpec net = every_level();
  net.site_links.clear();
  const Resolved r = resolve(net);
  EXPECT_LINK(r, a0, b0, LinkSource::gpu_link, 5);
  EXPECT_LINK(r, b0, a0, LinkSource::inter_site, 3);
  EXPECT_LINK(r, a1, b0, LinkSource::inter_site, 3);
}

TEST(Links, DiagonalIsEmpty) {
  const Resolved r = resolve(every_level());
  for (int g = 0; g < kGpus; ++g) EXPECT_FALSE(r.at(g, g).has_value()) << g;
}

TEST(Links, LaterDuplicatesWin) {
  NetworkSpec net = every_level();
  net.links.push_back({"a0", "b0", gbps(7)});
  net.site_links.push_back({"A", "B", gbps(8)});
  const Resolved r = resolve(net);
  EXPECT_LINK(r, a0, b0, LinkSource::gpu_link, 7);
  EXPECT_LINK(r, a1, b0, LinkSource::site_link, 8);
}

TEST(Links, GpusWithoutSiteShareOneSite) {
  std::vector<Gpu> gpus(3);
  gpus[0].id = "x", gpus[1].id = "y", gpus[2].id = "z";
  gpus[2].site = "A";
  NetworkSpec net;
  net.intra_site = gbps(2);
  net.inter_site = gbps(3);
  const auto table = resolve_links(net, gpus);
  ASSERT_TRUE(table[0 * 3 + 1].has_value());
  EXPECT_EQ(table[0 * 3 + 1]->source, LinkSource::intra_site);  // x -> y: both site-less
  ASSERT_TRUE(table[0 * 3 + 2].has_value());
  EXPECT_EQ(table[0 * 3 + 2]->source, LinkSource::inter_site);  // x -> z: "" vs "A"
}

TEST(Links, NothingResolvesWithoutADeclaration) {
  NetworkSpec net;
  net.intra_site = gbps(2);
  const Resolved r = resolve(net);
  EXPECT_TRUE(r.at(a0, a1).has_value());
  EXPECT_FALSE(r.at(a0, b0).has_value());
}

TEST(Links, SourceNamesAreTheFileKeys) {
  EXPECT_STREQ(link_source_name(LinkSource::gpu_link), "links");
  EXPECT_STREQ(link_source_name(LinkSource::site_link), "site_links");
  EXPECT_STREQ(link_source_name(LinkSource::intra_site), "intra_site");
  EXPECT_STREQ(link_source_name(LinkSource::inter_site), "inter_site");
  EXPECT_STREQ(link_source_name(LinkSource::default_link), "default");
}

// ---- Through the problem file ------------------------------------------------

nlohmann::json two_site_problem() {
  return nlohmann::json::parse(R"({
    "model": {"hidden_size": 1000, "num_layers": 2, "seq_length": 1000, "vocab_size": 1000,
              "micro_batch_size": 1, "global_batch_size": 4},
    "gpus": [
      {"id": "a0", "site": "A", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
      {"id": "a1", "site": "A", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
      {"id": "b0", "site": "B", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250}
    ],
    "network": {"intra_site": {"bandwidth_gbps": 100, "latency_ms": 0},
                "site_links": [{"from": "A", "to": "B", "bandwidth_gbps": 10, "latency_ms": 1}]}
  })");
}

TEST(Links, AMissingPairIsAnErrorNamingNetworkAndThePair) {
  // B -> A has no site link (A -> B does not count), no inter_site, no default.
  try {
    parse_problem(two_site_problem());
    FAIL() << "accepted a pool with unlinked pairs";
  } catch (const InputError& e) {
    ASSERT_EQ(e.messages().size(), 2u) << e.what();  // b0 -> a0 and b0 -> a1
    EXPECT_EQ(e.messages()[0],
              "network: no link from b0 to a0 (site \"B\" to \"A\"); add network.default, network.inter_site, "
              "a site_links or a links entry");
    EXPECT_EQ(e.messages()[1].rfind("network: no link from b0 to a1 ", 0), 0u) << e.messages()[1];
  }
}

TEST(Links, TheReverseSiteLinkCompletesThePool) {
  nlohmann::json doc = two_site_problem();
  doc["network"]["site_links"].push_back({{"from", "B"}, {"to", "A"}, {"bandwidth_gbps", 40}, {"latency_ms", 0}});
  const CostModel cm(parse_problem(doc).problem);
  // S = 2 * 1000 * 1000 = 2e6 bytes.
  // a0 -> b0 (site link A -> B): 1e-3 + 2e6 / 1.25e9 = 2.6e-3
  // b0 -> a0 (site link B -> A): 0 + 2e6 / 5e9 = 4e-4
  // a0 -> a1 (intra_site):        0 + 2e6 / 1.25e10 = 1.6e-4
  EXPECT_NEAR(cm.send_s(0, 2), 2.6e-3, 1e-15);
  EXPECT_NEAR(cm.send_s(2, 0), 4e-4, 1e-15);
  EXPECT_NEAR(cm.send_s(0, 1), 1.6e-4, 1e-15);
}

TEST(Links, ManyMissingPairsAreSummarised) {
  // Six GPUs on six sites and no link at all: 30 missing pairs, 5 shown and a summary.
  nlohmann::json doc = two_site_problem();
  doc["network"] = nlohmann::json::object();
  doc["gpus"] = nlohmann::json::array();
  for (int i = 0; i < 6; ++i)
    doc["gpus"].push_back({{"id", "g" + std::to_string(i)}, {"site", std::string(1, char('A' + i))},
                           {"peak_tflops", 100}, {"memory_gib", 80}, {"idle_w", 50}, {"active_w", 250}});
  try {
    parse_problem(doc);
    FAIL() << "accepted a pool without links";
  } catch (const InputError& e) {
    ASSERT_EQ(e.messages().size(), 6u) << e.what();
    EXPECT_EQ(e.messages()[5], "network: ... and 25 more GPU pairs without a link");
  }
}

}  // namespace
}  // namespace geotrain

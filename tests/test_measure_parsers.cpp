// Each tool's reader on its real formats (tests/fixtures/measured/SOURCES.md)
// and on hostile files: cut short, the wrong tool, numbers beyond a double,
// NaN, duplicates, a BOM and CR line ends.
#include <gtest/gtest.h>

#include "measure/gpu_names.hpp"
#include "measure/iperf3_json.hpp"
#include "measure/measured_file.hpp"
#include "measure/megatron_log.hpp"
#include "measure/nccl_all_reduce.hpp"
#include "measure/nvidia_smi_csv.hpp"
#include "measure/nvidia_topo.hpp"
#include "measure/ping_summary.hpp"
#include "measured_fixtures.hpp"

namespace geotrain {
namespace {

using measure::MeasuredFile;
using testing::fixture;
using testing::refused_with;

TEST(MeasureTextTest, LinesDropTheBomAndEveryLineEnd) {
  const auto lines = measure::split_lines("\xEF\xBB\xBF" "a\r\nb\rc\n\nd");
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0].text, "a");
  EXPECT_EQ(lines[1].text, "b");
  EXPECT_EQ(lines[2].text, "c");
  EXPECT_EQ(lines[3].text, "");
  EXPECT_EQ(lines[4].number, 5u);
}

TEST(MeasureTextTest, DecimalTakesWhatToolsPrintAndNothingElse) {
  EXPECT_EQ(*measure::decimal("81920"), 81920);
  EXPECT_EQ(*measure::decimal("-1"), -1);
  EXPECT_EQ(*measure::decimal("1.5e3"), 1500);
  for (const char* bad : {"nan", "inf", "1e400", "0x10", " 5", "5 ", "", ".", "1e", "--1"})
    EXPECT_FALSE(measure::decimal(bad)) << bad;
}

TEST(MeasureTextTest, NamesAreCleanedForMessagesAndJson) {
  EXPECT_EQ(measure::printable("a\x01" "b\xff"), "a?b?");
  EXPECT_EQ(measure::first_non_utf8_line("ok\n\xc3\xa9\nbad \xc0\x80"), 3u);
  EXPECT_EQ(measure::first_non_utf8_line("caf\xc3\xa9"), 0u);
  EXPECT_EQ(measure::file_stem("logs/node-1.smi.csv"), "node-1");
  EXPECT_EQ(measure::base_name("C:\\runs\\a-b.iperf.json"), "a-b.iperf.json");
}

TEST(NvidiaSmiCsvTest, ReadsTheDocumentedQuery) {
  const auto gpus = measure::parse_nvidia_smi_csv(fixture("a100-node.smi.csv"));
  ASSERT_EQ(gpus.size(), 8u);
  EXPECT_EQ(gpus[3].index, 3);
  EXPECT_EQ(gpus[3].name, "NVIDIA A100-SXM4-80GB");
  EXPECT_EQ(gpus[3].memory_mib, 81920);
  EXPECT_EQ(*gpus[3].power_limit_w, 400);
  EXPECT_EQ(gpus[3].line, 5u);
}

TEST(NvidiaSmiCsvTest, ReadsExtraColumnsNoHeaderNoUnitsAndNotAvailable) {
  const auto extra = measure::parse_nvidia_smi_csv(fixture("extra-columns.smi.csv"));
  ASSERT_EQ(extra.size(), 2u);
  EXPECT_EQ(extra[1].memory_mib, 24576);
  const auto bare = measure::parse_nvidia_smi_csv(fixture("noheader.smi.csv"));
  ASSERT_EQ(bare.size(), 4u);
  EXPECT_EQ(bare[0].name, "Tesla V100-SXM2-16GB");
  EXPECT_EQ(bare[0].memory_mib, 16160);
  EXPECT_EQ(*bare[0].power_limit_w, 300);
  const auto na = measure::parse_nvidia_smi_csv(fixture("not-in-catalogue.smi.csv"));
  ASSERT_EQ(na.size(), 1u);
  EXPECT_FALSE(na[0].power_limit_w);
}

TEST(NvidiaSmiCsvTest, ABomAndCrLineEndsReadAsPlainText) {
  const auto gpus = measure::parse_nvidia_smi_csv(fixture("bom-crlf.smi.csv"));
  ASSERT_EQ(gpus.size(), 2u);
  EXPECT_EQ(gpus[1].name, "NVIDIA A100-SXM4-80GB");
  EXPECT_EQ(*gpus[1].power_limit_w, 400);
}

TEST(NvidiaSmiCsvTest, RefusesHostileFilesNamingTheLine) {
  const auto parse = [](const char* name) { return [name] { measure::parse_nvidia_smi_csv(fixture(name)); }; };
  EXPECT_TRUE(refused_with(parse("truncated.smi.csv"), "truncated.smi.csv line 3: 3 fields where the header has 4 (a line cut short?)"));
  EXPECT_TRUE(refused_with(parse("duplicate-index.smi.csv"), "duplicate-index.smi.csv line 4: GPU index 1 again (first on line 3)"));
  EXPECT_TRUE(refused_with(parse("huge-memory.smi.csv"),
                           "huge-memory.smi.csv line 2: memory.total must be a number of MiB, got \"1e400 MiB\""));
  EXPECT_TRUE(refused_with(parse("nan-power.smi.csv"), "nan-power.smi.csv line 2: power.limit must be a number of W, got \"nan W\""));
  EXPECT_TRUE(refused_with(parse("wrong-columns.smi.csv"),
                           "wrong-columns.smi.csv line 1: no memory.total column: this is not the output of nvidia-smi "
                           "--query-gpu=index,name,memory.total,power.limit --format=csv"));
  EXPECT_TRUE(refused_with(parse("table.smi.csv"),
                           "table.smi.csv line 1: this is nvidia-smi's table, not its CSV; run nvidia-smi "
                           "--query-gpu=index,name,memory.total,power.limit --format=csv"));
  EXPECT_TRUE(refused_with([] { measure::parse_nvidia_smi_csv({"x.csv", "index, name, memory.total [MiB], power.limit [W]\n0, A, 0 MiB, 1 W\n"}); },
                           "x.csv line 2: memory.total \"0 MiB\" is outside what a GPU holds (1 KiB to 1 PiB)"));
}

TEST(GpuNamesTest, DriverNamesMapToCatalogueTypesAndOthersToNothing) {
  EXPECT_EQ(measure::catalogue_type_of("NVIDIA A100-SXM4-80GB"), "A100-SXM-80GB");
  EXPECT_EQ(measure::catalogue_type_of("A100-SXM4-40GB"), "A100-SXM-40GB");
  EXPECT_EQ(measure::catalogue_type_of("NVIDIA A100 80GB PCIe"), "A100-PCIe-80GB");
  EXPECT_EQ(measure::catalogue_type_of("NVIDIA H100 80GB HBM3"), "H100-SXM");
  EXPECT_EQ(measure::catalogue_type_of("Tesla V100-SXM2-16GB"), "V100-16GB");
  EXPECT_EQ(measure::catalogue_type_of("Tesla V100-PCIE-32GB"), "V100-PCIe-32GB");
  EXPECT_EQ(measure::catalogue_type_of("Tesla T4"), "T4");
  EXPECT_EQ(measure::catalogue_type_of("NVIDIA GeForce RTX 3090"), "RTX-3090");
  EXPECT_EQ(measure::catalogue_type_of("NVIDIA GeForce RTX 2080 Ti"), "RTX-2080-Ti");
  EXPECT_EQ(measure::catalogue_type_of("NVIDIA L40S"), "L40S");
  for (const char* other : {"NVIDIA A10G", "Tesla V100S-PCIE-32GB", "NVIDIA H100 NVL", "NVIDIA GeForce RTX 5070 Ti", ""})
    EXPECT_EQ(measure::catalogue_type_of(other), "") << other;
}

TEST(NvidiaTopoTest, ReadsAnHgxMatrixWithNicRowsAndLegend) {
  const auto m = measure::parse_nvidia_topo(fixture("hgx-a100.topo.txt"));
  EXPECT_EQ(m.gpus, 8);
  EXPECT_EQ(m.header_line, 1u);
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b) EXPECT_EQ(m.links(a, b), a == b ? 0 : 12);
}

TEST(NvidiaTopoTest, ReadsEscapedHeadersAndSpacesAndMixedLinks) {
  const auto bridges = measure::parse_nvidia_topo(fixture("rtx3090-bridges.topo.txt"));
  EXPECT_EQ(bridges.gpus, 4);
  EXPECT_EQ(bridges.links(0, 1), 4);
  EXPECT_EQ(bridges.links(2, 3), 4);
  EXPECT_EQ(bridges.links(1, 2), 0);
  const auto dgx1 = measure::parse_nvidia_topo(fixture("dgx1-v100.topo.txt"));
  EXPECT_EQ(dgx1.gpus, 8);
  EXPECT_EQ(dgx1.links(0, 3), 2);
  EXPECT_EQ(dgx1.links(0, 1), 1);
  EXPECT_EQ(dgx1.links(0, 5), 0);
}

TEST(NvidiaTopoTest, RefusesHostileMatrices) {
  const auto parse = [](const char* name) { return [name] { measure::parse_nvidia_topo(fixture(name)); }; };
  EXPECT_TRUE(refused_with(parse("truncated.topo.txt"), "truncated.topo.txt: no row for GPU4 (the file is cut short?)"));
  EXPECT_TRUE(refused_with(parse("asymmetric.topo.txt"),
                           "asymmetric.topo.txt line 5: GPU3 to GPU0 has 6 NVLinks, the other way 12: the matrix must be symmetric"));
  EXPECT_TRUE(refused_with(parse("unknown-link.topo.txt"),
                           "unknown-link.topo.txt line 4: GPU2 to GPU0: unknown connection \"XGMI\" (expected NV#, SYS, "
                           "NODE, PHB, PXB or PIX)"));
  EXPECT_TRUE(refused_with([] { measure::parse_nvidia_topo({"t.txt", "GPU0\tGPU1\nGPU0\t X \tNV4\nGPU1\tNV4\n"}); },
                           "t.txt line 3: row GPU1 has 1 cells, the header 2 columns (a line cut short?)"));
}

TEST(PingSummaryTest, ReadsLinuxMacosBusyboxAndBareSummaries) {
  const auto linux = measure::parse_ping_summary(fixture("linux.ping.txt"));
  EXPECT_EQ(linux.target, "gpu-b.example.net");
  EXPECT_EQ(linux.address, "10.2.0.9");
  EXPECT_EQ(linux.avg_ms, 0.403);
  EXPECT_EQ(linux.one_way_ms(), 0.2015);
  EXPECT_EQ(linux.line, 10u);
  EXPECT_EQ(measure::parse_ping_summary(fixture("macos.ping.txt")).avg_ms, 148.245);
  EXPECT_EQ(measure::parse_ping_summary(fixture("busybox.ping.txt")).max_ms, 1.077);
  const auto bare = measure::parse_ping_summary(fixture("summary-only.ping.txt"));
  EXPECT_EQ(bare.avg_ms, 74.522);
  EXPECT_EQ(bare.address, "");
  EXPECT_EQ(measure::parse_ping_summary(fixture("bom-crlf.ping.txt")).avg_ms, 0.403);
}

TEST(PingSummaryTest, RefusesHostileSummaries) {
  const auto parse = [](const char* name) { return [name] { measure::parse_ping_summary(fixture(name)); }; };
  EXPECT_TRUE(refused_with(parse("no-replies.ping.txt"), "no-replies.ping.txt: ping got no replies (100% packet loss): no latency to read"));
  EXPECT_TRUE(refused_with(parse("nan.ping.txt"),
                           "nan.ping.txt line 10: a round-trip time must be a number of ms from 0 to 1e6, got \"nan\""));
  EXPECT_TRUE(refused_with(parse("unordered.ping.txt"), "unordered.ping.txt line 10: min/avg/max are not in order: \"0.419/0.403/0.388/0.011\""));
  EXPECT_TRUE(refused_with(parse("two-pings.ping.txt"),
                           "two-pings.ping.txt line 18: a second ping summary (the first on line 8); one ping per file"));
}

TEST(Iperf3JsonTest, ReadsTheReceiversRateAndTheRoundTrip) {
  const auto r = measure::parse_iperf3_json(fixture("tcp-client.iperf.json"));
  EXPECT_EQ(r.protocol, "TCP");
  EXPECT_FALSE(r.reverse);
  // end.sum_received: 11762500000 bytes in 10.041 s = 9.37158 Gbps (6 digits).
  EXPECT_DOUBLE_EQ(r.forward_gbps, 9.37158);
  EXPECT_DOUBLE_EQ(*r.min_rtt_ms, 31.84);
  EXPECT_EQ(r.client_names, (std::vector<std::string>{"gpu-a", "10.1.0.4"}));
  EXPECT_EQ(r.server_names, (std::vector<std::string>{"10.2.0.9", "10.2.0.9"}));
}

TEST(Iperf3JsonTest, ReadsReverseBidirAndOldUdp) {
  const auto reverse = measure::parse_iperf3_json(fixture("reverse.iperf.json"));
  EXPECT_TRUE(reverse.reverse);
  EXPECT_FALSE(reverse.min_rtt_ms);  // the receiving client has no round trips to report
  const auto bidir = measure::parse_iperf3_json(fixture("bidir.iperf.json"));
  EXPECT_DOUBLE_EQ(bidir.forward_gbps, 0.739891);
  EXPECT_DOUBLE_EQ(*bidir.bidir_reverse_gbps, 0.910842);
  const auto udp = measure::parse_iperf3_json(fixture("udp-old.iperf.json"));
  EXPECT_EQ(udp.protocol, "UDP");
  EXPECT_DOUBLE_EQ(udp.forward_gbps, 0.999998);
}

TEST(Iperf3JsonTest, RefusesServersErrorsAndBrokenFiles) {
  const auto parse = [](const char* name) { return [name] { measure::parse_iperf3_json(fixture(name)); }; };
  EXPECT_TRUE(refused_with(parse("server-side.iperf.json"),
                           "server-side.iperf.json: this is an iperf3 server's output; import the client's (iperf3 -c SERVER --json)"));
  EXPECT_TRUE(refused_with(parse("error.iperf.json"),
                           "error.iperf.json: iperf3 reported an error, not a measurement: \"unable to connect to server: "
                           "Connection ...\""));
  EXPECT_TRUE(refused_with(parse("zero-rate.iperf.json"),
                           "zero-rate.iperf.json: end.sum_received.bits_per_second: 0 is no usable rate (from 1 kbit/s to "
                           "1 Pbit/s; 0 means nothing arrived)"));
  const auto truncated = testing::input_errors(parse("truncated.iperf.json"));
  ASSERT_EQ(truncated.size(), 1u);
  EXPECT_EQ(truncated[0].rfind("truncated.iperf.json: not valid JSON: parse error at line ", 0), 0u) << truncated[0];
  const auto huge = testing::input_errors(parse("huge-rate.iperf.json"));
  ASSERT_EQ(huge.size(), 1u);
  EXPECT_EQ(huge[0].rfind("huge-rate.iperf.json: not valid JSON: number out of range at line ", 0), 0u) << huge[0];
  const auto escaped = testing::input_errors(parse("escape-prefix.iperf.json"));
  ASSERT_EQ(escaped.size(), 1u);
  EXPECT_EQ(escaped[0].rfind("escape-prefix.iperf.json: not valid JSON: parse error at line 1, column 1", 0), 0u) << escaped[0];
}

TEST(NcclAllReduceTest, ReadsRanksAndRowsOfTodaysFormat) {
  const auto run = measure::parse_nccl_all_reduce(fixture("two-nodes.nccl.txt"));
  ASSERT_EQ(run.ranks.size(), 16u);
  EXPECT_EQ(run.ranks[9].host, "cloud-2");
  EXPECT_EQ(run.ranks[9].device, 1);
  EXPECT_EQ(run.ranks[9].gpu_name, "NVIDIA A100-SXM4-80GB");
  ASSERT_EQ(run.rows.size(), 31u);  // 8 B to 8 GiB by powers of two
  EXPECT_EQ(run.rows.front().bytes, 8);
  EXPECT_EQ(run.rows.back().bytes, 8589934592.0);
  EXPECT_EQ(run.rows.back().busbw_gbytes_per_s, 188.32);
}

TEST(NcclAllReduceTest, ReadsThe2021Format) {
  const auto run = measure::parse_nccl_all_reduce(fixture("v100-2021.nccl.txt"));
  ASSERT_EQ(run.ranks.size(), 8u);
  EXPECT_EQ(run.ranks[7].host, "dgx1");
  EXPECT_EQ(run.ranks[7].gpu_name, "Tesla V100-SXM2-16GB");
  EXPECT_EQ(run.rows.back().bytes, 268435456);
  EXPECT_EQ(run.rows.back().busbw_gbytes_per_s, 130.16);
}

TEST(NcclAllReduceTest, RefusesOtherCollectivesWrongResultsAndBrokenFiles) {
  const auto parse = [](const char* name) { return [name] { measure::parse_nccl_all_reduce(fixture(name)); }; };
  EXPECT_TRUE(refused_with(parse("all-gather.nccl.txt"), "all-gather.nccl.txt line 2: this is \"all_gather_perf\", not all_reduce_perf"));
  EXPECT_TRUE(refused_with(parse("failed.nccl.txt"),
                           "failed.nccl.txt line 49: nccl-tests reports wrong results (Out of bounds values : 12 FAILED): "
                           "not a figure to plan with"));
  EXPECT_TRUE(refused_with(parse("truncated.nccl.txt"),
                           "truncated.nccl.txt line 31: a result row with 6 columns, 9 needed (a line cut short?)"));
  EXPECT_TRUE(refused_with(parse("duplicate-rank.nccl.txt"), "duplicate-rank.nccl.txt line 13: rank 6 again (first on line 12)"));
}

TEST(MegatronLogTest, TheMedianLeavesOutTheFirstInterval) {
  // 9 intervals; without the first (4321.7 ms, with start-up) the median of
  // 1887.9 1889.1 1890.6 1892.0 | 1893.2 1895.8 1901.4 2466.3 is (1892.0 + 1893.2) / 2.
  const auto times = measure::parse_megatron_log(fixture("train.log"));
  EXPECT_EQ(times.ms.size(), 9u);
  EXPECT_EQ(times.used, 8u);
  EXPECT_DOUBLE_EQ(times.median_ms, 1892.6);
  // The older format, without time stamps: median of 1984.9 and 1981.1.
  EXPECT_DOUBLE_EQ(measure::parse_megatron_log(fixture("train-2021.log")).median_ms, 1983.0);
}

TEST(MegatronLogTest, RefusesLogsWithoutTimesOrWithBadOnes) {
  EXPECT_TRUE(refused_with([] { measure::parse_megatron_log(fixture("no-iterations.log")); },
                           "no-iterations.log: no \"elapsed time per iteration (ms): ...\" line: not a Megatron-LM training log"));
  EXPECT_TRUE(refused_with([] { measure::parse_megatron_log(fixture("train-bad.log")); },
                           "train-bad.log line 2: elapsed time per iteration must be a positive number of ms (at most 1e9), got \"inf\""));
}

TEST(MeasuredFileTest, TellsEachToolFromItsText) {
  using measure::ToolFormat;
  const std::pair<const char*, ToolFormat> cases[] = {
      {"a100-node.smi.csv", ToolFormat::nvidia_smi_csv},   {"noheader.smi.csv", ToolFormat::nvidia_smi_csv},
      {"hgx-a100.topo.txt", ToolFormat::nvidia_smi_topo},  {"rtx3090-bridges.topo.txt", ToolFormat::nvidia_smi_topo},
      {"tcp-client.iperf.json", ToolFormat::iperf3_json},  {"summary-only.ping.txt", ToolFormat::ping},
      {"v100-2021.nccl.txt", ToolFormat::nccl_all_reduce}, {"a100-node.nccl.txt", ToolFormat::nccl_all_reduce},
  };
  for (const auto& [name, format] : cases) {
    MeasuredFile file = fixture(name);
    file.name = "renamed.txt";  // names are free: the text decides
    EXPECT_EQ(measure::parse_measured_file(file).format, format) << name;
  }
}

TEST(MeasuredFileTest, RefusesBinaryTrainingLogsAndUnknownText) {
  EXPECT_TRUE(refused_with([] { measure::parse_measured_file(fixture("binary.smi.csv")); },
                           "binary.smi.csv line 2: not UTF-8 text (a binary file?)"));
  EXPECT_TRUE(refused_with([] { measure::parse_measured_file(fixture("train.log")); },
                           "train.log: a Megatron-LM training log: give it to geotrain calibrate --run PLAN:LOG"));
  EXPECT_TRUE(refused_with([] { measure::parse_measured_file({"dir/notes.txt", "hello"}); },
                           "notes.txt: not the output of a tool import reads (nvidia-smi --query-gpu CSV, nvidia-smi topo -m, "
                           "iperf3 --json, ping, nccl-tests all_reduce_perf)"));
  EXPECT_TRUE(refused_with([] { measure::parse_measured_file({"big.csv", std::string(measure::kMaxMeasuredFileBytes + 1, 'a')}); },
                           "big.csv: larger than 16 MiB; no tool output here is that long"));
}

}  // namespace
}  // namespace geotrain

// The built-in site figures (grid carbon, PUE, electricity price per region)
// and the GPU-hour prices of the GPU catalogue: plausible, sourced, and the
// same numbers as the tables in examples/CATALOGUE.md.
#include "model/region_catalogue.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "api/api.hpp"
#include "model/gpu_catalogue.hpp"

namespace geotrain {
namespace {

TEST(RegionCatalogue, EveryEntryIsSourcedAndPlausible) {
  ASSERT_GE(region_catalogue().size(), 25u);
  for (const RegionEntry& e : region_catalogue()) {
    SCOPED_TRACE(e.region);
    EXPECT_FALSE(e.name.empty());
    EXPECT_FALSE(e.source.empty());
    EXPECT_NE(e.source.find("carbon: "), std::string::npos);
    EXPECT_NE(e.source.find("PUE: "), std::string::npos);
    EXPECT_NE(e.source.find("price: "), std::string::npos);
    EXPECT_NE(e.source.find("not live"), std::string::npos);
    EXPECT_GE(e.year, 2019);
    EXPECT_LE(e.year, 2026);
    EXPECT_GE(e.carbon_g_per_kwh, 0);
    EXPECT_LE(e.carbon_g_per_kwh, 1200);
    EXPECT_GE(e.pue, 1);
    EXPECT_LE(e.pue, 2.5);
    EXPECT_GE(e.price_per_kwh, 0);
    EXPECT_LE(e.price_per_kwh, 1);
    ASSERT_EQ(e.country.size(), 2u);
    EXPECT_TRUE(e.country[0] >= 'A' && e.country[0] <= 'Z' && e.country[1] >= 'A' && e.country[1] <= 'Z');
  }
}

TEST(RegionCatalogue, IdsAreUniqueAndNameTheirProvider) {
  std::set<std::string> seen;
  for (const RegionEntry& e : region_catalogue()) {
    EXPECT_TRUE(seen.insert(e.region).second) << "duplicate: " << e.region;
    const std::string provider = e.region.substr(0, e.region.find(':'));
    EXPECT_TRUE(provider == "aws" || provider == "gcp" || provider == "azure" || provider == "country") << e.region;
    // A country entry is named by its own code, and sits in a typical facility (Uptime's 1.58).
    if (provider == "country") {
      EXPECT_EQ(e.region, "country:" + e.country);
      EXPECT_DOUBLE_EQ(e.pue, 1.58);
    }
  }
}

TEST(RegionCatalogue, ListsTheRegionsAndCountriesOfTheIssue) {
  for (const char* id : {"aws:us-east-1", "aws:us-west-2", "aws:eu-west-1", "aws:eu-central-1", "aws:eu-north-1",
                         "aws:ap-southeast-1", "aws:ap-northeast-1", "aws:sa-east-1", "aws:af-south-1",
                         "aws:ca-central-1", "aws:ap-south-1", "gcp:europe-west1", "gcp:europe-north1",
                         "gcp:us-central1", "azure:westeurope"}) {
    EXPECT_NE(find_region(id), nullptr) << id;
  }
  for (const char* code : {"FR", "DE", "SE", "NO", "PL", "GB", "US", "CA", "IN", "CN", "JP", "AU", "BR", "ZA", "SG", "IE",
                           "IS", "FI", "NL"}) {
    EXPECT_NE(find_region(std::string("country:") + code), nullptr) << code;
  }
}

TEST(RegionCatalogue, FindRegionIgnoresCaseAndRejectsUnknownIds) {
  const RegionEntry* virginia = find_region("aws:us-east-1");
  ASSERT_NE(virginia, nullptr);
  EXPECT_EQ(virginia->name, "AWS us-east-1 (N. Virginia)");
  EXPECT_EQ(virginia->country, "US");
  EXPECT_EQ(find_region("AWS:US-EAST-1"), virginia);
  EXPECT_EQ(find_region("Country:fr"), find_region("country:FR"));
  EXPECT_EQ(find_region(""), nullptr);
  EXPECT_EQ(find_region("us-east-1"), nullptr);  // the provider prefix is part of the id
  EXPECT_EQ(find_region("aws:us-east-1 "), nullptr);
  EXPECT_EQ(find_region("country:XX"), nullptr);
}

TEST(RegionCatalogue, KeyFiguresMatchTheirReports) {
  // Google region-carbon-info 2024: us-east4 (N. Virginia) 323.05 g, shared by AWS us-east-1; AWS PUE 1.15.
  const RegionEntry* virginia = find_region("aws:us-east-1");
  ASSERT_NE(virginia, nullptr);
  EXPECT_DOUBLE_EQ(virginia->carbon_g_per_kwh, 323);
  EXPECT_DOUBLE_EQ(virginia->pue, 1.15);
  EXPECT_EQ(virginia->year, 2024);
  // Ember 2023: France 56 g, Germany 381 g, India 713 g; Eurostat 2nd half 2023: Finland EUR 0.089
  // = 0.089 * 1.08 = 0.096 USD, rounded to 0.10.
  EXPECT_DOUBLE_EQ(find_region("country:FR")->carbon_g_per_kwh, 56);
  EXPECT_DOUBLE_EQ(find_region("country:DE")->carbon_g_per_kwh, 381);
  EXPECT_DOUBLE_EQ(find_region("country:IN")->carbon_g_per_kwh, 713);
  EXPECT_DOUBLE_EQ(find_region("country:FI")->price_per_kwh, 0.10);
  EXPECT_EQ(find_region("country:FR")->year, 2023);
  // Google's fleet PUE 1.10.
  EXPECT_DOUBLE_EQ(find_region("gcp:europe-west1")->pue, 1.10);
}

TEST(RegionCatalogue, JsonListsEveryEntryWithItsKeysInOrder) {
  const nlohmann::ordered_json list = region_catalogue_json();
  ASSERT_TRUE(list.is_array());
  ASSERT_EQ(list.size(), region_catalogue().size());
  const std::vector<std::string> keys = {"region", "name", "country", "carbon_g_per_kwh",
                                         "pue",    "price_per_kwh", "source", "year"};
  for (std::size_t i = 0; i < list.size(); ++i) {
    std::vector<std::string> got;
    for (const auto& item : list[i].items()) got.push_back(item.key());
    EXPECT_EQ(got, keys);
    EXPECT_EQ(list[i]["region"], region_catalogue()[i].region);
    EXPECT_DOUBLE_EQ(list[i]["carbon_g_per_kwh"].get<double>(), region_catalogue()[i].carbon_g_per_kwh);
    EXPECT_EQ(list[i]["year"].get<int>(), region_catalogue()[i].year);
  }
}

TEST(GpuCataloguePrices, EveryEntryHasAPriceAndItsSource) {
  for (const CatalogueEntry& e : gpu_catalogue()) {
    SCOPED_TRACE(e.name);
    EXPECT_GE(e.price_per_hour, 0);
    EXPECT_LT(e.price_per_hour, 50);
    EXPECT_FALSE(e.price_source.empty());
    // Every source names its year.
    EXPECT_NE(e.price_source.find("20"), std::string::npos);
  }
}

TEST(GpuCataloguePrices, AwsPricesAreInstancePricesOverGpusPerInstance) {
  // p5.48xlarge $98.32/h over 8 H100 = 12.29; p4de.24xlarge $40.97/h over 8 = 5.12;
  // p3dn.24xlarge $31.21/h over 8 V100 32GB = 3.90; g4dn.xlarge one T4 at $0.526, rounded to 0.53.
  EXPECT_NEAR(find_catalogue_entry("H100-SXM")->price_per_hour, 98.32 / 8, 0.005);
  EXPECT_NEAR(find_catalogue_entry("A100-SXM-80GB")->price_per_hour, 40.97 / 8, 0.005);
  EXPECT_NEAR(find_catalogue_entry("V100-32GB")->price_per_hour, 31.21 / 8, 0.005);
  EXPECT_NEAR(find_catalogue_entry("T4")->price_per_hour, 0.526, 0.005);
}

TEST(GpuCataloguePrices, CatalogueJsonCarriesThePriceKeys) {
  const nlohmann::ordered_json list = catalogue_json();
  ASSERT_EQ(list.size(), gpu_catalogue().size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    ASSERT_TRUE(list[i].contains("price_per_hour"));
    ASSERT_TRUE(list[i].contains("price_source"));
    EXPECT_DOUBLE_EQ(list[i]["price_per_hour"].get<double>(), gpu_catalogue()[i].price_per_hour);
    EXPECT_EQ(list[i]["price_source"], gpu_catalogue()[i].price_source);
  }
}

TEST(GpuCataloguePrices, AreNeverFilledIntoAProblem) {
  // The catalogue fills flops, memory and power, but a GPU's rent stays the spec's default 0.
  const std::string problem = R"({
    "model": {"hidden_size": 64, "num_layers": 2, "seq_length": 16, "vocab_size": 100,
              "micro_batch_size": 1, "global_batch_size": 2},
    "gpus": [{"id": "g0", "type": "H100-SXM"}],
    "network": {"default": {"bandwidth_gbps": 10, "latency_ms": 1}}
  })";
  const nlohmann::ordered_json validated = validate_request(problem)["problem"];
  EXPECT_DOUBLE_EQ(validated["gpus"][0].value("price_per_hour", 0.0), 0.0);
  EXPECT_GT(validated["gpus"][0]["peak_tflops"].get<double>(), 0);  // the catalogue did fill the rest
  // And a plan on it costs nothing: no rent (the catalogue's 12.29 USD/h unused) and no electricity price.
  const nlohmann::ordered_json report = evaluate_request(problem, R"({"stages": [{"gpu": "g0", "layers": 2}]})");
  ASSERT_TRUE(report.contains("cost")) << report.dump();
  EXPECT_DOUBLE_EQ(report["cost"].get<double>(), 0.0);
}

// The table rows of one "## title" section of CATALOGUE.md, as cells, header rows left out.
std::vector<std::vector<std::string>> table_rows(const std::string& title) {
  std::ifstream in(std::string(GEOTRAIN_EXAMPLES_DIR) + "/CATALOGUE.md");
  std::vector<std::vector<std::string>> rows;
  bool inside = false;
  int row_number = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) {
      inside = line == "## " + title;
      continue;
    }
    if (!inside || line.rfind("| ", 0) != 0) continue;
    if (++row_number <= 2) continue;  // header and "| --- |" rule
    std::vector<std::string> cells;
    std::stringstream cells_text(line.substr(1));
    for (std::string cell; std::getline(cells_text, cell, '|');) {
      const auto first = cell.find_first_not_of(' ');
      const auto last = cell.find_last_not_of(' ');
      cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
    }
    rows.push_back(cells);
  }
  return rows;
}

TEST(CatalogueDocument, RegionTableListsExactlyTheBuiltInRegions) {
  const auto rows = table_rows("Grid carbon intensity, PUE and electricity price by region");
  ASSERT_EQ(rows.size(), region_catalogue().size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const RegionEntry& e = region_catalogue()[i];
    SCOPED_TRACE(e.region);
    ASSERT_GE(rows[i].size(), 8u);
    // | region | name | country | gCO2e/kWh | PUE | USD/kWh | year | source |
    EXPECT_EQ(rows[i][0], "`" + e.region + "`");
    EXPECT_EQ(rows[i][1], e.name);
    EXPECT_EQ(rows[i][2], e.country);
    EXPECT_DOUBLE_EQ(std::stod(rows[i][3]), e.carbon_g_per_kwh);
    EXPECT_DOUBLE_EQ(std::stod(rows[i][4]), e.pue);
    EXPECT_DOUBLE_EQ(std::stod(rows[i][5]), e.price_per_kwh);
    EXPECT_EQ(std::stoi(rows[i][6]), e.year);
    EXPECT_FALSE(rows[i][7].empty());
  }
}

TEST(CatalogueDocument, PriceTableListsExactlyTheCataloguePrices) {
  const auto rows = table_rows("GPU-hour prices");
  ASSERT_EQ(rows.size(), gpu_catalogue().size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const CatalogueEntry& e = gpu_catalogue()[i];
    SCOPED_TRACE(e.name);
    ASSERT_GE(rows[i].size(), 3u);
    // | type | USD per GPU-hour | source |; a dash is 0 (no common offer).
    EXPECT_EQ(rows[i][0], e.name);
    EXPECT_DOUBLE_EQ(rows[i][1] == "—" ? 0.0 : std::stod(rows[i][1]), e.price_per_hour);
    EXPECT_EQ(rows[i][2], e.price_source);
  }
}

}  // namespace
}  // namespace geotrain

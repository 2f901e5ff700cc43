#pragma once
// Built-in site figures: grid carbon intensity, PUE and electricity price for
// common cloud regions and countries, from public reports (examples/CATALOGUE.md
// lists them with their rules). Representative yearly figures, not live data:
// the page offers them as suggestions for a problem's `sites`, and numbers
// written in a problem file always win. Nothing here is read by the parser.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace geotrain {

struct RegionEntry {
  std::string region;       // id: "aws:us-east-1", "gcp:europe-west1", "azure:westeurope", "country:FR"
  std::string name;         // "AWS us-east-1 (N. Virginia)"
  std::string country;      // ISO 3166-1 alpha-2 code of where the electricity is drawn
  double carbon_g_per_kwh;  // annual average grid intensity, location-based, gCO2e per kWh
  double pue;               // provider fleet average (cloud) or industry survey average (country)
  double price_per_kwh;     // typical commercial / industrial electricity price, USD per kWh
  std::string source;       // the report and year behind each of the three numbers
  int year;                 // data year of the carbon figure
};

const std::vector<RegionEntry>& region_catalogue();

// Case-insensitive match on the id ("AWS:US-EAST-1" finds "aws:us-east-1").
// Null when no entry has that id.
const RegionEntry* find_region(std::string_view id);

// [{"region", "name", "country", "carbon_g_per_kwh", "pue", "price_per_kwh",
//   "source", "year"}, ...] in catalogue order.
nlohmann::ordered_json region_catalogue_json();

}  // namespace geotrain

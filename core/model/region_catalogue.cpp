// Built-in site figures for common cloud regions and countries.
//
// Rules every entry follows (examples/CATALOGUE.md repeats them for users):
//  - carbon_g_per_kwh is a yearly average of the grid the site draws from,
//    location-based (no renewable-energy contracts). Cloud regions take Google's
//    published grid intensity for a Google region on the same grid zone
//    (region-carbon-info, 2024: operational emissions from Electricity Maps'
//    hourly data), or, where Google has no region on that grid, Ember's country
//    figure. Countries take Ember's yearly figure (2023, life-cycle, so a little
//    higher than operational figures on clean grids).
//  - pue is the provider's published fleet average for cloud regions (AWS 1.15,
//    Google 1.10, Microsoft about 1.18) and the Uptime Institute survey average
//    (1.58, 2023) for a country, i.e. a typical on-premise or colocation room.
//  - price_per_kwh is a typical commercial / industrial electricity price of the
//    place in USD (Eurostat non-household, EIA commercial, national tariffs),
//    converted at 2023 average rates. A rented cloud GPU's hourly price already
//    pays for its power: the figure is for GPUs you run yourself there.
//  - All representative yearly figures, not live; unverified ones say
//    "approximate".
#include "model/region_catalogue.hpp"

#include <string>

namespace geotrain {

namespace {

// A place's electricity price and where it comes from.
struct Tariff {
  double usd_per_kwh;
  const char* source;
};

const Tariff kVirginia{0.09, "EIA Electric Power Annual 2023, Virginia average commercial price (approximate)"};
const Tariff kOregon{0.10, "EIA Electric Power Annual 2023, Oregon average commercial price (approximate)"};
const Tariff kIowa{0.11, "EIA Electric Power Annual 2023, Iowa average commercial price (approximate)"};
const Tariff kUnitedStates{0.127, "EIA Electric Power Annual 2023, US average commercial price 12.7 cents"};
const Tariff kQuebec{0.06, "Hydro-Quebec Rate M (medium power), 2023, about CAD 0.08 (approximate)"};
const Tariff kCanada{0.09, "Hydro-Quebec comparison of North American electricity prices 2023, "
                           "Canadian large-power average (approximate)"};
const Tariff kBrazil{0.14, "ANEEL average commercial tariff 2023, about BRL 0.70 (approximate)"};
const Tariff kIreland{0.28, "Eurostat non-household prices (excl. VAT) 2nd half 2023, about EUR 0.26 (approximate)"};
const Tariff kBritain{0.30, "DESNZ Quarterly Energy Prices 2023, non-domestic average about GBP 0.25 (approximate)"};
const Tariff kGermany{0.22, "Eurostat non-household prices (excl. VAT) 2nd half 2023, about EUR 0.20 (approximate)"};
const Tariff kFrance{0.18, "Eurostat non-household prices (excl. VAT) 2nd half 2023, about EUR 0.17 (approximate)"};
const Tariff kSweden{0.10, "Eurostat non-household prices (excl. VAT) 2nd half 2023, about EUR 0.09 (approximate)"};
const Tariff kNorway{0.09, "Eurostat non-household prices (excl. VAT) 2nd half 2023, about EUR 0.08 (approximate)"};
const Tariff kPoland{0.22, "Eurostat non-household prices (excl. VAT) 2nd half 2023, about EUR 0.20 (approximate)"};
const Tariff kFinland{0.10, "Eurostat non-household prices (excl. VAT) 2nd half 2023, EUR 0.089 (the EU's lowest)"};
const Tariff kNetherlands{0.19, "Eurostat non-household prices (excl. VAT) 2nd half 2023, about EUR 0.18 "
                                "(approximate)"};
const Tariff kBelgium{0.21, "Eurostat non-household prices (excl. VAT) 2nd half 2023, about EUR 0.19 (approximate)"};
const Tariff kIceland{0.06, "Icelandic commercial tariffs 2023, about USD 0.06 (approximate)"};
const Tariff kSingapore{0.21, "SP Group high-tension tariff 2023, about SGD 0.28 (approximate)"};
const Tariff kJapan{0.17, "METI / ANRE industrial average 2023, about JPY 24 (approximate)"};
const Tariff kIndia{0.09, "Indian state industrial tariffs 2023, about INR 7.5 (approximate)"};
const Tariff kChina{0.09, "Chinese industrial and commercial tariffs 2023, about CNY 0.65 (approximate)"};
const Tariff kAustralia{0.16, "Australian business tariffs 2023, about AUD 0.24 (approximate)"};
const Tariff kSouthAfrica{0.09, "Eskom average tariff 2023/24, about ZAR 1.6 (approximate)"};

const char* const kAwsPue = "AWS global PUE 1.15 (Amazon 2024 Sustainability Report; 1.15 also in 2023)";
const char* const kGooglePue = "Google fleet-wide trailing-twelve-month PUE 1.10 (Google 2024 Environmental Report, 2023)";
const char* const kAzurePue = "Microsoft global average PUE about 1.18 (Microsoft datacenter fact sheets, 2023, "
                              "approximate)";
const char* const kUptimePue = "industry average PUE 1.58 (Uptime Institute Global Data Center Survey 2023)";
constexpr double kAws = 1.15, kGoogle = 1.10, kAzure = 1.18, kUptime = 1.58;

// Carbon from Google's figure for `gcp_region`, a region on the same grid zone.
std::string google_grid(const std::string& gcp_region) {
  return "Google Cloud region-carbon-info 2024, grid carbon intensity of " + gcp_region +
         " (operational, location-based, Electricity Maps hourly data)";
}

// Carbon from Ember's yearly country figure.
std::string ember(bool approximate) {
  return std::string("Ember Yearly Electricity Data 2023, life-cycle, via Our World in Data") +
         (approximate ? " (approximate)" : "");
}

RegionEntry entry(const char* id, const char* name, const char* country, double carbon, const std::string& carbon_source,
                  int year, double pue, const char* pue_source, const Tariff& tariff) {
  const std::string source = "carbon: " + carbon_source + "; PUE: " + pue_source + "; price: " + tariff.source +
                             ". Representative, not live.";
  return {id, name, country, carbon, pue, tariff.usd_per_kwh, source, year};
}

RegionEntry cloud_on_google_grid(const char* id, const char* name, const char* country, double carbon,
                                 const char* gcp_region, double pue, const char* pue_source, const Tariff& tariff) {
  return entry(id, name, country, carbon, google_grid(gcp_region), 2024, pue, pue_source, tariff);
}

RegionEntry country(const char* code, const char* name, double carbon, bool approximate, const Tariff& tariff) {
  return entry((std::string("country:") + code).c_str(), name, code, carbon, ember(approximate), 2023, kUptime,
               kUptimePue, tariff);
}

std::vector<RegionEntry> build_regions() {
  std::vector<RegionEntry> list = {
      // ---- AWS ---------------------------------------------------------------
      cloud_on_google_grid("aws:us-east-1", "AWS us-east-1 (N. Virginia)", "US", 323, "us-east4 (N. Virginia)", kAws,
                           kAwsPue, kVirginia),
      cloud_on_google_grid("aws:us-west-2", "AWS us-west-2 (Oregon)", "US", 79, "us-west1 (Oregon)", kAws, kAwsPue,
                           kOregon),
      cloud_on_google_grid("aws:ca-central-1", "AWS ca-central-1 (Montreal)", "CA", 5,
                           "northamerica-northeast1 (Montreal)", kAws, kAwsPue, kQuebec),
      cloud_on_google_grid("aws:sa-east-1", "AWS sa-east-1 (Sao Paulo)", "BR", 67, "southamerica-east1 (Sao Paulo)",
                           kAws, kAwsPue, kBrazil),
      entry("aws:eu-west-1", "AWS eu-west-1 (Ireland)", "IE", 291, ember(false) + ", Ireland (no Google region there)",
            2023, kAws, kAwsPue, kIreland),
      cloud_on_google_grid("aws:eu-west-2", "AWS eu-west-2 (London)", "GB", 106, "europe-west2 (London)", kAws, kAwsPue,
                           kBritain),
      cloud_on_google_grid("aws:eu-central-1", "AWS eu-central-1 (Frankfurt)", "DE", 276, "europe-west3 (Frankfurt)",
                           kAws, kAwsPue, kGermany),
      cloud_on_google_grid("aws:eu-north-1", "AWS eu-north-1 (Stockholm)", "SE", 3, "europe-north2 (Stockholm)", kAws,
                           kAwsPue, kSweden),
      cloud_on_google_grid("aws:ap-southeast-1", "AWS ap-southeast-1 (Singapore)", "SG", 367,
                           "asia-southeast1 (Singapore)", kAws, kAwsPue, kSingapore),
      cloud_on_google_grid("aws:ap-northeast-1", "AWS ap-northeast-1 (Tokyo)", "JP", 453, "asia-northeast1 (Tokyo)", kAws,
                           kAwsPue, kJapan),
      cloud_on_google_grid("aws:ap-south-1", "AWS ap-south-1 (Mumbai)", "IN", 679, "asia-south1 (Mumbai)", kAws, kAwsPue,
                           kIndia),
      cloud_on_google_grid("aws:af-south-1", "AWS af-south-1 (Cape Town)", "ZA", 657,
                           "africa-south1 (Johannesburg; one national grid)", kAws, kAwsPue, kSouthAfrica),
      // ---- Google Cloud --------------------------------------------------------
      cloud_on_google_grid("gcp:us-central1", "Google Cloud us-central1 (Iowa)", "US", 413, "us-central1 (Iowa)", kGoogle,
                           kGooglePue, kIowa),
      cloud_on_google_grid("gcp:us-east4", "Google Cloud us-east4 (N. Virginia)", "US", 323, "us-east4 (N. Virginia)",
                           kGoogle, kGooglePue, kVirginia),
      cloud_on_google_grid("gcp:europe-west1", "Google Cloud europe-west1 (Belgium)", "BE", 103, "europe-west1 (Belgium)",
                           kGoogle, kGooglePue, kBelgium),
      cloud_on_google_grid("gcp:europe-west4", "Google Cloud europe-west4 (Netherlands)", "NL", 209,
                           "europe-west4 (Eemshaven)", kGoogle, kGooglePue, kNetherlands),
      cloud_on_google_grid("gcp:europe-north1", "Google Cloud europe-north1 (Finland)", "FI", 39,
                           "europe-north1 (Finland)", kGoogle, kGooglePue, kFinland),
      // ---- Microsoft Azure -----------------------------------------------------
      cloud_on_google_grid("azure:eastus", "Azure East US (Virginia)", "US", 323, "us-east4 (N. Virginia)", kAzure,
                           kAzurePue, kVirginia),
      cloud_on_google_grid("azure:westeurope", "Azure West Europe (Netherlands)", "NL", 209, "europe-west4 (Eemshaven)",
                           kAzure, kAzurePue, kNetherlands),
      entry("azure:northeurope", "Azure North Europe (Ireland)", "IE", 291,
            ember(false) + ", Ireland (no Google region there)", 2023, kAzure, kAzurePue, kIreland),
  };
  // ---- Countries: a typical facility on the national grid -----------------------
  for (const RegionEntry& e : {
           country("US", "United States (country average)", 369, false, kUnitedStates),
           country("CA", "Canada (country average)", 170, false, kCanada),
           country("BR", "Brazil (country average)", 98, false, kBrazil),
           country("IE", "Ireland (country average)", 291, false, kIreland),
           country("GB", "United Kingdom (country average)", 238, true, kBritain),
           country("FR", "France (country average)", 56, false, kFrance),
           country("DE", "Germany (country average)", 381, false, kGermany),
           country("NL", "Netherlands (country average)", 268, true, kNetherlands),
           country("BE", "Belgium (country average)", 138, false, kBelgium),
           country("PL", "Poland (country average)", 662, true, kPoland),
           country("SE", "Sweden (country average)", 41, true, kSweden),
           country("NO", "Norway (country average)", 30, false, kNorway),
           country("FI", "Finland (country average)", 79, false, kFinland),
           country("IS", "Iceland (country average)", 28, true, kIceland),
           country("IN", "India (country average)", 713, false, kIndia),
           country("CN", "China (country average)", 582, false, kChina),
           country("JP", "Japan (country average)", 485, true, kJapan),
           country("SG", "Singapore (country average)", 471, true, kSingapore),
           country("AU", "Australia (country average)", 549, false, kAustralia),
           country("ZA", "South Africa (country average)", 708, true, kSouthAfrica),
       }) {
    list.push_back(e);
  }
  return list;
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool same_id(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

}  // namespace

const std::vector<RegionEntry>& region_catalogue() {
  static const std::vector<RegionEntry> regions = build_regions();
  return regions;
}

const RegionEntry* find_region(std::string_view id) {
  for (const RegionEntry& e : region_catalogue()) {
    if (same_id(e.region, id)) return &e;
  }
  return nullptr;
}

nlohmann::ordered_json region_catalogue_json() {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const RegionEntry& e : region_catalogue()) {
    list.push_back({{"region", e.region},
                    {"name", e.name},
                    {"country", e.country},
                    {"carbon_g_per_kwh", e.carbon_g_per_kwh},
                    {"pue", e.pue},
                    {"price_per_kwh", e.price_per_kwh},
                    {"source", e.source},
                    {"year", e.year}});
  }
  return list;
}

}  // namespace geotrain

#include "measure/gpu_names.hpp"

#include <cctype>
#include <utility>

#include "model/gpu_catalogue.hpp"

namespace geotrain::measure {

namespace {

// Upper case, without the brand words and without ' ', '-', '_':
// "NVIDIA GeForce RTX 3090" -> "RTX3090", "Tesla V100-SXM2-16GB" -> "V100SXM216GB".
std::string key_of(std::string_view name) {
  std::string key;
  for (char c : name) {
    if (c == ' ' || c == '-' || c == '_') continue;
    key.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  }
  for (const char* brand : {"NVIDIA", "TESLA", "GEFORCE", "QUADRO"})
    if (key.rfind(brand, 0) == 0) key.erase(0, std::char_traits<char>::length(brand));
  if (key.rfind("GEFORCE", 0) == 0) key.erase(0, 7);  // "NVIDIA GeForce ..."
  return key;
}

// Names as drivers print them (keys as key_of makes them) whose catalogue
// name differs; the others match the catalogue's own name ("A40", "L4",
// "RTX 4090").
const std::pair<const char*, const char*> kDriverNames[] = {
    {"H10080GBHBM3", "H100-SXM"},       {"H100SXM580GB", "H100-SXM"},       {"H100PCIE", "H100-PCIe"},
    {"A100SXM480GB", "A100-SXM-80GB"},  {"A100SXM440GB", "A100-SXM-40GB"},  {"A100PCIE40GB", "A100-PCIe-40GB"},
    {"A10080GBPCIE", "A100-PCIe-80GB"}, {"A100PCIE80GB", "A100-PCIe-80GB"}, {"V100SXM216GB", "V100-16GB"},
    {"V100SXM232GB", "V100-32GB"},      {"V100PCIE16GB", "V100-PCIe-16GB"}, {"V100PCIE32GB", "V100-PCIe-32GB"},
};

}  // namespace

std::string catalogue_type_of(std::string_view nvidia_smi_name) {
  const std::string key = key_of(nvidia_smi_name);
  if (key.empty()) return "";
  for (const auto& [driver, type] : kDriverNames)
    if (key == driver) return type;
  const CatalogueEntry* entry = find_catalogue_entry(key);
  return entry ? entry->name : "";
}

}  // namespace geotrain::measure

#include "model/gpu_catalogue.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace geotrain {
namespace {

const std::vector<std::string>& required_names() {
  static const std::vector<std::string> names = {
      "A100-SXM-80GB", "A100-PCIe-40GB", "H100-SXM", "H100-PCIe",  "A30",         "A40",
      "A10",           "L4",             "L40S",     "T4",         "V100-16GB",   "V100-32GB",
      "RTX-2080-Ti",   "RTX-3090",       "RTX-4090",
  };
  return names;
}

std::string squashed(const std::string& name) {
  std::string key;
  for (char c : name) {
    if (c == ' ' || c == '_' || c == '-') continue;
    key.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
  }
  return key;
}

TEST(GpuCatalogue, EveryRequiredEntryIsPresentUnderItsCanonicalName) {
  for (const std::string& name : required_names()) {
    const CatalogueEntry* entry = find_catalogue_entry(name);
    ASSERT_NE(entry, nullptr) << name;
    EXPECT_EQ(entry->name, name);
  }
}

TEST(GpuCatalogue, NamesAreUniqueEvenAfterNormalising) {
  std::set<std::string> seen;
  for (const CatalogueEntry& entry : gpu_catalogue()) {
    EXPECT_TRUE(seen.insert(squashed(entry.name)).second) << "duplicate: " << entry.name;
  }
}

TEST(GpuCatalogue, NumbersArePositiveAndActiveAboveIdle) {
  for (const CatalogueEntry& entry : gpu_catalogue()) {
    SCOPED_TRACE(entry.name);
    EXPECT_GT(entry.fp16_tflops, 0);
    EXPECT_GE(entry.bf16_tflops, 0);
    EXPECT_GT(entry.fp32_tflops, 0);
    EXPECT_GT(entry.memory_gib, 0);
    EXPECT_GT(entry.idle_w, 0);
    EXPECT_GT(entry.active_w, entry.idle_w);
    // Tensor-core half precision beats plain FP32 on every GPU listed.
    EXPECT_GT(entry.fp16_tflops, entry.fp32_tflops);
    // Where bf16 exists it runs at the fp16 rate on these GPUs.
    if (entry.bf16_tflops > 0) {
      EXPECT_DOUBLE_EQ(entry.bf16_tflops, entry.fp16_tflops);
    }
    // Idle near the paper's 15% of TDP (the paper's own figures round it).
    EXPECT_NEAR(entry.idle_w / entry.active_w, 0.15, 0.02);
  }
}

TEST(GpuCatalogue, Bf16IsZeroExactlyOnVoltaAndTuring) {
  for (const char* name : {"T4", "RTX-2080-Ti", "V100-16GB", "V100-32GB"}) {
    const CatalogueEntry* entry = find_catalogue_entry(name);
    ASSERT_NE(entry, nullptr) << name;
    EXPECT_EQ(entry->bf16_tflops, 0) << name;
  }
  for (const char* name : {"A100-SXM-80GB", "H100-SXM", "A30", "L4", "RTX-3090", "RTX-4090"}) {
    const CatalogueEntry* entry = find_catalogue_entry(name);
    ASSERT_NE(entry, nullptr) << name;
    EXPECT_GT(entry->bf16_tflops, 0) << name;
  }
}

TEST(GpuCatalogue, KeyFiguresMatchTheDatasheets) {
  const CatalogueEntry* a100 = find_catalogue_entry("A100-SXM-80GB");
  ASSERT_NE(a100, nullptr);
  EXPECT_DOUBLE_EQ(a100->fp16_tflops, 312);
  EXPECT_DOUBLE_EQ(a100->fp32_tflops, 19.5);
  EXPECT_DOUBLE_EQ(a100->memory_gib, 80);
  EXPECT_DOUBLE_EQ(a100->idle_w, 60);
  EXPECT_DOUBLE_EQ(a100->active_w, 400);

  // The paper's Table 7 powers.
  const CatalogueEntry* a100_pcie = find_catalogue_entry("A100-PCIe-40GB");
  ASSERT_NE(a100_pcie, nullptr);
  EXPECT_DOUBLE_EQ(a100_pcie->idle_w, 40);
  EXPECT_DOUBLE_EQ(a100_pcie->active_w, 250);
  const CatalogueEntry* a30 = find_catalogue_entry("A30");
  ASSERT_NE(a30, nullptr);
  EXPECT_DOUBLE_EQ(a30->idle_w, 25);
  EXPECT_DOUBLE_EQ(a30->active_w, 165);
  EXPECT_DOUBLE_EQ(a30->memory_gib, 24);

  // Consumer cards: the FP32-accumulate tensor figure, not the FP16-accumulate one.
  EXPECT_DOUBLE_EQ(find_catalogue_entry("RTX-2080-Ti")->fp16_tflops, 53.8);
  EXPECT_DOUBLE_EQ(find_catalogue_entry("RTX-3090")->fp16_tflops, 71);
  EXPECT_DOUBLE_EQ(find_catalogue_entry("RTX-4090")->fp16_tflops, 165.2);

  // Dense, not sparse.
  EXPECT_DOUBLE_EQ(find_catalogue_entry("H100-SXM")->fp16_tflops, 989.4);
  EXPECT_DOUBLE_EQ(find_catalogue_entry("H100-PCIe")->fp16_tflops, 756);
  EXPECT_DOUBLE_EQ(find_catalogue_entry("L40S")->fp16_tflops, 362.05);

  // Plain FP32, not TF32.
  EXPECT_DOUBLE_EQ(find_catalogue_entry("A40")->fp32_tflops, 37.4);
  EXPECT_DOUBLE_EQ(find_catalogue_entry("T4")->fp32_tflops, 8.1);
}

TEST(GpuCatalogue, MatchingIgnoresCaseSpacesUnderscoresAndHyphens) {
  const CatalogueEntry* canonical = find_catalogue_entry("A100-SXM-80GB");
  ASSERT_NE(canonical, nullptr);
  for (const char* spelling : {"a100 sxm 80gb", "A100_SXM_80GB", "A100SXM80GB", "a100-sxm_80 gb", " A100-SXM-80GB ",
                               "a100--sxm--80gb"}) {
    EXPECT_EQ(find_catalogue_entry(spelling), canonical) << spelling;
  }
  EXPECT_EQ(find_catalogue_entry("rtx 2080 ti"), find_catalogue_entry("RTX-2080-Ti"));
  EXPECT_EQ(find_catalogue_entry("h100_pcie"), find_catalogue_entry("H100-PCIe"));
  EXPECT_EQ(find_catalogue_entry("l40s"), find_catalogue_entry("L40S"));
}

TEST(GpuCatalogue, EveryEntryFindsItselfUnderEverySpelling) {
  for (const CatalogueEntry& entry : gpu_catalogue()) {
    std::string lower, spaced, underscored;
    for (char c : entry.name) {
      lower.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
      spaced.push_back(c == '-' ? ' ' : c);
      underscored.push_back(c == '-' ? '_' : c);
    }
    EXPECT_EQ(find_catalogue_entry(entry.name), &entry);
    EXPECT_EQ(find_catalogue_entry(lower), &entry) << lower;
    EXPECT_EQ(find_catalogue_entry(spaced), &entry) << spaced;
    EXPECT_EQ(find_catalogue_entry(underscored), &entry) << underscored;
    EXPECT_EQ(find_catalogue_entry(squashed(entry.name)), &entry);
  }
}

TEST(GpuCatalogue, UnknownNamesAreNull) {
  EXPECT_EQ(find_catalogue_entry(""), nullptr);
  EXPECT_EQ(find_catalogue_entry("   "), nullptr);
  EXPECT_EQ(find_catalogue_entry("-_-"), nullptr);
  EXPECT_EQ(find_catalogue_entry("A100"), nullptr);  // ambiguous prefixes do not match
  EXPECT_EQ(find_catalogue_entry("A100-SXM-80GBX"), nullptr);
  EXPECT_EQ(find_catalogue_entry("H200"), nullptr);
  EXPECT_EQ(find_catalogue_entry("my custom gpu"), nullptr);
}

TEST(GpuCatalogue, PeakTflopsPicksTheColumnForThePrecision) {
  for (const CatalogueEntry& entry : gpu_catalogue()) {
    SCOPED_TRACE(entry.name);
    EXPECT_DOUBLE_EQ(entry.peak_tflops(Precision::fp16), entry.fp16_tflops);
    EXPECT_DOUBLE_EQ(entry.peak_tflops(Precision::bf16), entry.bf16_tflops);
    EXPECT_DOUBLE_EQ(entry.peak_tflops(Precision::fp32), entry.fp32_tflops);
  }
  const CatalogueEntry* t4 = find_catalogue_entry("T4");
  ASSERT_NE(t4, nullptr);
  EXPECT_DOUBLE_EQ(t4->peak_tflops(Precision::fp16), 65);
  EXPECT_DOUBLE_EQ(t4->peak_tflops(Precision::bf16), 0);  // unsupported
  EXPECT_DOUBLE_EQ(t4->peak_tflops(Precision::fp32), 8.1);
  const CatalogueEntry* h100 = find_catalogue_entry("H100-SXM");
  ASSERT_NE(h100, nullptr);
  EXPECT_DOUBLE_EQ(h100->peak_tflops(Precision::bf16), 989.4);
  EXPECT_DOUBLE_EQ(h100->peak_tflops(Precision::fp32), 67);
}

TEST(GpuCatalogue, EveryEntryHasASource) {
  for (const CatalogueEntry& entry : gpu_catalogue()) {
    EXPECT_FALSE(entry.source.empty()) << entry.name;
    EXPECT_NE(entry.source.find("NVIDIA"), std::string::npos) << entry.name;
  }
}

TEST(GpuCatalogue, ReturnsTheSameTableEveryCall) {
  EXPECT_EQ(&gpu_catalogue(), &gpu_catalogue());
  EXPECT_GE(gpu_catalogue().size(), required_names().size());
}

}  // namespace
}  // namespace geotrain

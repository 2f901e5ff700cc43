// Garbage input to the problem parser (random bytes, truncated and mutated
// documents, every field replaced by every kind of value) must end in
// InputError, never in a crash, a hang or another exception.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/cost_model.hpp"
#include "model/input_error.hpp"
#include "problem_doc.hpp"
#include "model/problem_json.hpp"
#include "search/random.hpp"

namespace geotrain {
namespace {

using json = nlohmann::json;
using testing::base_doc;

// ---- Garbage never crashes -------------------------------------------------------

// Parses `text`; anything but success or InputError is a failure.
void expect_clean_outcome(const std::string& text, const std::string& label) {
  try {
    const ParsedProblem parsed = parse_problem_text(text);
    // Whatever parses must also evaluate without trouble.
    const CostModel cm(parsed.problem);
    const Plan single{{0, static_cast<int>(parsed.problem.model.num_layers)}};
    (void)cm.evaluate(single);
  } catch (const InputError&) {
  } catch (const std::exception& e) {
    ADD_FAILURE() << label << ": " << e.what() << "\n" << text.substr(0, 300);
  } catch (...) {
    ADD_FAILURE() << label << ": unknown exception";
  }
}

TEST(ProblemJsonGarbage, SpecialTexts) {
  static const char kRawNul[] = "{\"name\": \"a\0b\"}";
  const std::vector<std::string> texts = {
      "",
      "null",
      " ",
      "{",
      "}",
      "{}",
      "[]",
      "\"\"",
      "1e400",
      "-1e400",
      R"({"model": {"hidden_size": 1e400}})",
      R"({"model": {"num_layers": 99999999999999999999999999999}})",
      R"({"model": {"num_layers": -0}})",
      std::string(100000, '['),
      std::string(100000, '{'),
      std::string(100000, ']'),
      "{\"name\": \"\xff\xfe\"}",                 // invalid UTF-8
      "{\"name\": \"\\ud800\"}",                  // lone surrogate escape
      std::string(kRawNul, sizeof kRawNul - 1),  // raw NUL inside a string
      "\xef\xbb\xbf{}",                           // byte order mark
      "{} {}",
      R"({"gpus": [null, 1, "x", [], {}]})",
      R"({"network": {"links": [null, 1, {"from": 1, "to": []}]}})",
      R"({"network": {"site_links": [{"from": null}]}, "gpus": [{"id": "a"}]})",
  };
  for (std::size_t i = 0; i < texts.size(); ++i) expect_clean_outcome(texts[i], "text " + std::to_string(i));
}

TEST(ProblemJsonGarbage, RandomBytes) {
  Rng rng(20240601);
  for (int k = 0; k < 2000; ++k) {
    std::string text(rng.below(120), '\0');
    for (char& c : text) c = static_cast<char>(rng.below(256));
    if (k % 2) text.insert(0, "{\"model\": ");  // get past the first byte now and then
    expect_clean_outcome(text, "random " + std::to_string(k));
  }
}

TEST(ProblemJsonGarbage, TruncatedDocumentsAreRefused) {
  const std::string text = base_doc().dump();
  for (std::size_t n = 0; n < text.size(); ++n) {
    try {
      parse_problem_text(text.substr(0, n));
      ADD_FAILURE() << "accepted a prefix of " << n << " bytes";
    } catch (const InputError&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << "prefix " << n << ": " << e.what();
    }
  }
}

TEST(ProblemJsonGarbage, MutatedDocuments) {
  const std::string text = base_doc().dump(1);
  const std::string alphabet = "{}[]\",:.-+eE0123456789 truefalsnul\\xg";
  Rng rng(7);
  for (int k = 0; k < 3000; ++k) {
    std::string t = text;
    const int edits = 1 + static_cast<int>(rng.below(3));
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = rng.below(t.size());
      switch (rng.below(3)) {
        case 0: t[at] = alphabet[rng.below(alphabet.size())]; break;
        case 1: t.erase(at, 1); break;
        default: t.insert(at, 1, alphabet[rng.below(alphabet.size())]); break;
      }
    }
    expect_clean_outcome(t, "mutation " + std::to_string(k));
  }
}

TEST(ProblemJsonGarbage, EveryFieldReplacedByEveryKindOfValue) {
  json doc = base_doc();
  doc["objective"] = {{"lambda", 0.5}, {"t_ref_ms", 10}, {"e_ref_j", 2}};
  doc["search"] = {{"population", 10}, {"seed", 3}};
  doc["network"]["links"] = json::array({{{"from", "g0"}, {"to", "g1"}, {"bandwidth_gbps", 5}, {"latency_ms", 2}}});
  doc["network"]["site_links"] =
      json::array({{{"from", "A"}, {"to", "B"}, {"bandwidth_gbps", 5}, {"latency_ms", 2}}});
  const std::vector<json> values = {nullptr, true, "x", "", -1, 0, 0.5, 12.5, 1e308, -1e308,
                                    json::array(), json::object(), json::array({1, 2}), json{{"a", 1}}};
  // Every leaf and every container, by JSON pointer.
  std::set<std::string> pointers;
  const json flat = doc.flatten();
  for (const auto& item : flat.items()) {
    json::json_pointer p(item.key());
    for (; !p.empty(); p = p.parent_pointer()) pointers.insert(p.to_string());
  }
  for (const auto& text : pointers) {
    const json::json_pointer pointer(text);
    for (const json& value : values) {
      json mutated = doc;
      mutated[pointer] = value;
      expect_clean_outcome(mutated.dump(), pointer.to_string() + " = " + value.dump());
    }
  }
}

}  // namespace
}  // namespace geotrain

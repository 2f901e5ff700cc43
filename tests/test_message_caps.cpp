// Message lists stay short (core/model/message_list.hpp), counted nouns read
// right, and every JSON fault is placed at a line and column
// (core/model/json_text.hpp).
#include "model/message_list.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api/api.hpp"
#include "model/input_error.hpp"
#include "model/json_text.hpp"
#include "model/plan_json.hpp"
#include "problem_doc.hpp"

namespace geotrain {
namespace {

using json = nlohmann::json;

std::vector<std::string> numbered(int count) {
  std::vector<std::string> out;
  for (int i = 0; i < count; ++i) out.push_back("m" + std::to_string(i));
  return out;
}

TEST(MessageList, ShortListsAreKept) {
  EXPECT_EQ(cap_messages(numbered(0)), numbered(0));
  EXPECT_EQ(cap_messages(numbered(101)), numbered(101));  // a summary would save nothing
}

TEST(MessageList, LongListsKeepTheFirstHundredThenCount) {
  const auto capped = cap_messages(numbered(250));
  ASSERT_EQ(capped.size(), 101u);
  EXPECT_EQ(capped[99], "m99");
  EXPECT_EQ(capped[100], "... and 150 more");  // 250 - 100
  EXPECT_EQ(cap_messages(capped), capped);  // capping twice changes nothing
}

TEST(MessageList, SummaryLinesCountForWhatTheyStandFor) {
  std::vector<std::string> list = numbered(100);
  list.push_back("... and 5000 more");
  list.push_back("one more");
  // 5000 + 1 beyond the first hundred.
  EXPECT_EQ(cap_messages(list).back(), "... and 5001 more");
  EXPECT_EQ(messages_in_line("... and 12 more"), 12u);
  EXPECT_EQ(messages_in_line("... and twelve more"), 1u);
  EXPECT_EQ(messages_in_line("gpus[0]: required"), 1u);
}

TEST(MessageList, AddCappedStoresTheFirstHundredOnly) {
  std::vector<std::string> list;
  for (const auto& m : numbered(1000)) add_capped(list, m);
  ASSERT_EQ(list.size(), 101u);
  EXPECT_EQ(list[100], "... and 900 more");
}

TEST(MessageList, CountedNouns) {
  EXPECT_EQ(count_of(1, "stage"), "1 stage");
  EXPECT_EQ(count_of(2, "stage"), "2 stages");
  EXPECT_EQ(count_of(0, "GPU"), "0 GPUs");
}

TEST(MessageList, ThousandsOfUnknownFieldsGiveAHundredWarnings) {
  json doc = testing::base_doc();
  for (int i = 0; i < 5000; ++i) doc["x" + std::to_string(i)] = i;
  const auto out = validate_request(doc.dump());
  ASSERT_EQ(out["warnings"].size(), 101u);
  EXPECT_EQ(out["warnings"][100], "... and 4900 more");
}

TEST(MessageList, APlanOfManyBadStagesGivesAHundredErrors) {
  // 3000 stages naming an unknown GPU, each with no layers: two faults each,
  // plus the sum; 100 are listed.
  json stages = json::array();
  for (int i = 0; i < 3000; ++i) stages.push_back({{"gpu", "nope"}, {"layers", 0}});
  const Problem problem = parse_problem(testing::base_doc()).problem;
  try {
    parse_plan(json{{"stages", stages}}, problem);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    ASSERT_EQ(e.messages().size(), 101u);
    EXPECT_EQ(e.messages()[0], "stages[0].gpu: unknown GPU id \"nope\"");
    EXPECT_EQ(e.messages()[100], "... and 5900 more");  // 6000 faults, the first 100 listed
    EXPECT_EQ(error_to_json(e)["error"]["messages"].size(), 101u);
  }
}

// ---- JSON faults at a line and column --------------------------------------------------

std::string fault_of(const std::string& text) {
  try {
    parse_json_document(text, "problem");
  } catch (const InputError& e) {
    return e.messages().at(0);
  }
  return "";
}

TEST(JsonText, NumberOverflowIsPlacedAtItsToken) {
  // Line 3 is ` -1e999]}`: the number starts at its 2nd byte.
  EXPECT_EQ(fault_of("{\n  \"b\": [1,\n -1e999]}"),
            "problem: not valid JSON: number out of range at line 3, column 2: -1e999 is beyond the largest number "
            "a double holds (about 1.8e308)");
  EXPECT_EQ(fault_of(R"({"a": 1e400})").rfind("problem: not valid JSON: number out of range at line 1, column 7", 0),
            0u);
}

TEST(JsonText, SyntaxErrorsKeepTheirPosition) {
  EXPECT_EQ(fault_of("{\"a\": 1} x").rfind("problem: not valid JSON: parse error at line 1, column 10: ", 0), 0u);
}

TEST(JsonText, DeepNestingIsPlacedAtTheBracketTooMany) {
  EXPECT_EQ(fault_of("\n" + std::string(65, '[')), "problem: nested deeper than 64 levels at line 2, column 65");
}

TEST(JsonText, LineAndColumnCountBytesFromOne) {
  EXPECT_EQ(line_and_column("ab\ncd", 0), std::make_pair(std::size_t{1}, std::size_t{1}));
  EXPECT_EQ(line_and_column("ab\ncd", 4), std::make_pair(std::size_t{2}, std::size_t{2}));
  EXPECT_EQ(line_and_column("ab", 99), std::make_pair(std::size_t{1}, std::size_t{3}));  // past the end: its end
}

}  // namespace
}  // namespace geotrain

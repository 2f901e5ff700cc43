#pragma once
// Lists of messages for people: at most kListedMessages of them, then one line
// "... and N more". A problem with a million faults must not print a million
// lines (nor hold them all in memory), and one line per fault stays the rule
// below the cap. Also counted nouns ("1 stage", "2 stages").
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace geotrain {

constexpr std::size_t kListedMessages = 100;

// "... and 5 more": the line that stands for `count` messages left out.
std::string more_messages_line(std::uint64_t count);

// How many messages `line` stands for: N for a line "... and N more", else 1.
std::uint64_t messages_in_line(const std::string& line);

// The first kListedMessages messages, then "... and N more" for the rest.
// Lists of at most kListedMessages + 1 lines are kept as they are (a summary
// line would save nothing), so capping a capped list changes nothing, and a
// summary line already in the list counts for the messages it stands for.
std::vector<std::string> cap_messages(const std::vector<std::string>& messages);

// Appends one message to a list kept capped as it grows: the first
// kListedMessages are stored, the rest only counted in the summary line.
void add_capped(std::vector<std::string>& messages, std::string message);

// "1 stage", "2 stages", "0 stages": `noun` is the singular; plural adds "s".
std::string count_of(std::int64_t count, const std::string& noun);

}  // namespace geotrain

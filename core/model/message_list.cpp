#include "model/message_list.hpp"

#include <cctype>

namespace geotrain {

namespace {
const std::string kMorePrefix = "... and ";
const std::string kMoreSuffix = " more";
}  // namespace

std::string more_messages_line(std::uint64_t count) { return kMorePrefix + std::to_string(count) + kMoreSuffix; }

std::uint64_t messages_in_line(const std::string& line) {
  if (line.size() <= kMorePrefix.size() + kMoreSuffix.size() || line.compare(0, kMorePrefix.size(), kMorePrefix) != 0 ||
      line.compare(line.size() - kMoreSuffix.size(), kMoreSuffix.size(), kMoreSuffix) != 0)
    return 1;
  const std::string digits = line.substr(kMorePrefix.size(), line.size() - kMorePrefix.size() - kMoreSuffix.size());
  if (digits.size() > 18) return 1;  // not one of ours: no count that large fits in memory anyway
  std::uint64_t count = 0;
  for (char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return 1;
    count = count * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return count;
}

std::vector<std::string> cap_messages(const std::vector<std::string>& messages) {
  if (messages.size() <= kListedMessages + 1) return messages;
  std::vector<std::string> out(messages.begin(), messages.begin() + kListedMessages);
  std::uint64_t rest = 0;
  for (std::size_t i = kListedMessages; i < messages.size(); ++i) rest += messages_in_line(messages[i]);
  out.push_back(more_messages_line(rest));
  return out;
}

void add_capped(std::vector<std::string>& messages, std::string message) {
  if (messages.size() < kListedMessages) {
    messages.push_back(std::move(message));
  } else if (messages.size() == kListedMessages) {
    messages.push_back(more_messages_line(messages_in_line(message)));
  } else {
    messages.back() = more_messages_line(messages_in_line(messages.back()) + messages_in_line(message));
  }
}

std::string count_of(std::int64_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

}  // namespace geotrain

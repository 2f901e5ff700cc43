#include "cli/output.hpp"

#include <iostream>

#include "model/message_list.hpp"

namespace geotrain::cli {

void print_messages(const char* prefix, const std::vector<std::string>& messages) {
  for (const auto& m : cap_messages(messages)) std::cerr << prefix << m << "\n";
}

void print_warnings(const nlohmann::ordered_json& document) {
  if (!document.contains("warnings")) return;
  std::vector<std::string> warnings;
  for (const auto& w : document["warnings"]) warnings.push_back(w.get<std::string>());
  print_messages("warning: ", warnings);
}

int print(const nlohmann::ordered_json& document) {
  std::cout << document.dump(2) << "\n";
  print_warnings(document);
  return 0;
}

}  // namespace geotrain::cli

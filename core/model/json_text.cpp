#include "model/json_text.hpp"

#include <algorithm>

#include "model/input_error.hpp"

namespace geotrain {

using nlohmann::json;

namespace {

std::string at_text(const std::string& text, std::size_t offset) {
  const auto [line, column] = line_and_column(text, offset);
  return "at line " + std::to_string(line) + ", column " + std::to_string(column);
}

// nlohmann's parser is iterative but printing is not, so refuse absurd nesting
// before it can exhaust the stack.
void check_nesting(const std::string& text, const std::string& what) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        throw InputError(what + ": nested deeper than " + std::to_string(kMaxJsonDepth) + " levels " +
                         at_text(text, i));
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

// The library's DOM builder, keeping where a fault happened instead of
// throwing: its number-overflow error carries no position of its own.
class LocatingDomParser : public nlohmann::detail::json_sax_dom_parser<json> {
 public:
  explicit LocatingDomParser(json& root) : json_sax_dom_parser(root, false) {}

  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& error) {
    failed = true;
    end_offset = position;
    last_token = token;
    message = error.what();
    id = error.id;
    return false;
  }

  bool failed = false;
  std::size_t end_offset = 0;  // bytes read when the fault was found
  std::string last_token, message;
  int id = 0;
};

}  // namespace

std::pair<std::size_t, std::size_t> line_and_column(const std::string& text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t line = 1, line_start = 0;
  for (std::size_t i = 0; i < offset; ++i)
    if (text[i] == '\n') ++line, line_start = i + 1;
  return {line, offset - line_start + 1};
}

json parse_json_document(const std::string& text, const std::string& what) {
  check_nesting(text, what);
  json document;
  LocatingDomParser sax(document);
  json::sax_parse(text, &sax);
  if (!sax.failed) return document;
  const std::string prefix = what + ": not valid JSON: ";
  // Syntax errors: the library's text already says "parse error at line L, column C: ...".
  if (const auto at = sax.message.find("parse error at line"); at != std::string::npos)
    throw InputError(prefix + sax.message.substr(at));
  // A number beyond a double (id 406), or anything else: placed at its token.
  const std::size_t start = sax.end_offset >= sax.last_token.size() ? sax.end_offset - sax.last_token.size() : 0;
  std::string reason = sax.message;
  if (const auto close = reason.find("] "); reason.rfind("[json.exception.", 0) == 0 && close != std::string::npos)
    reason = reason.substr(close + 2);
  if (sax.id == 406)
    throw InputError(prefix + "number out of range " + at_text(text, start) + ": " + sax.last_token +
                     " is beyond the largest number a double holds (about 1.8e308)");
  throw InputError(prefix + reason + " " + at_text(text, start));
}

}  // namespace geotrain

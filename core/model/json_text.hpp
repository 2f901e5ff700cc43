#pragma once
// JSON text to a document, with every fault placed at a line and column:
// syntax errors, numbers beyond a double (1e400), and nesting too deep to
// print (the wasm stack is small).
#include <string>

#include <nlohmann/json.hpp>

namespace geotrain {

constexpr int kMaxJsonDepth = 64;

// Throws InputError "WHAT: not valid JSON: parse error at line L, column C: ..."
// (or "...: number out of range at line L, column C: ..."; "WHAT: nested
// deeper than 64 levels at line L, column C").
nlohmann::json parse_json_document(const std::string& text, const std::string& what);

// 1-based line and column (in bytes) of byte `offset` of `text`.
std::pair<std::size_t, std::size_t> line_and_column(const std::string& text, std::size_t offset);

}  // namespace geotrain

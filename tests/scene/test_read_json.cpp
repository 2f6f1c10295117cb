// parse_json_text / read_json_file: the limits beyond RFC 8259 (depth, size, duplicate keys, NUL, overflow,
// trailing bytes), each an InputError naming the file, the place and the field.
#include <string>

#include <gtest/gtest.h>

#include "core/error.h"
#include "scene/read_json.h"
#include "scene/scene_test_util.h"

namespace firn::scene {
namespace {

/// The InputError message of parsing `text` as "f.json" ("" when it parses).
std::string error_of(const std::string& text) {
  try {
    parse_json_text(text, "f.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

void expect_error(const std::string& text, const std::string& field, const std::string& what) {
  const std::string m = error_of(text);
  EXPECT_EQ(m.rfind("f.json: ", 0), 0u) << m;
  EXPECT_NE(m.find(field), std::string::npos) << "no field " << field << ": " << m;
  EXPECT_NE(m.find(what), std::string::npos) << "no '" << what << "': " << m;
  EXPECT_NE(m.find("; allowed: "), std::string::npos) << m;
}

TEST(ReadJson, ValidDocumentReadsAsNlohmannDoes) {
  const std::string text = R"({"a": [1, 2.5, -3, 18446744073709551615, "x", true, null, {"b": {}}], "c": 1e-300})";
  EXPECT_EQ(parse_json_text(text, "f.json"), nlohmann::json::parse(text));
}

TEST(ReadJson, NestingBeyondTheLimitNamesTheField) {
  auto nested = [](int depth) {
    return "{\"mpm\": {\"grid\": " + std::string(depth, '[') + std::string(depth, ']') + "}}";
  };
  EXPECT_EQ(error_of(nested(kMaxJsonDepth - 2)), "");
  expect_error(nested(kMaxJsonDepth - 1), "mpm.grid", "nesting deeper than 64");
  expect_error(nested(100000), "mpm.grid", "nesting deeper than 64");  // crashed the unbounded reader
}

TEST(ReadJson, DuplicateKeyNamesTheField) {
  expect_error(R"({"mpm": {"cfl": 0.4, "dt_max": 1, "cfl": 0.5}})", "mpm.cfl", "key given twice");
  EXPECT_EQ(error_of(R"({"a": {"cfl": 1}, "b": {"cfl": 1}})"), "");  // the same key in two objects is fine
}

TEST(ReadJson, NumberOverflowNamesTheField) {
  expect_error(R"({"mpm": {"bodies": [{"radius": 1e400}]}})", "mpm.bodies[0].radius", "1e400");
  expect_error(R"({"x": -1e309})", "x", "beyond the double range");
}

TEST(ReadJson, NulBytesAndEscapedNulAreRejected) {
  expect_error(std::string("{\"name\": \"a\"}\0{\"junk\": 1}", 26), "(top level)", "NUL byte at byte 13");
  expect_error(R"({"name": "ab\u0000cd"})", "name", "NUL character");
  expect_error(R"({"a\u0000b": 1})", "(top level)", "NUL character");
}

TEST(ReadJson, TrailingBytesAndSyntaxErrorsNameThePlace) {
  expect_error(R"({"a": 1} x)", "(top level)", "syntax error");
  expect_error("{\"a\": 1}\n\n{\"b\": 2}", "line 3, column 1", "syntax error");
  expect_error(R"({"mpm": {"cfl": 0.4,}})", "mpm", "syntax error");
  EXPECT_EQ(error_of("{\"a\": 1}\n \t\r\n"), "");  // trailing white space is fine
}

TEST(ReadJson, FileSizeLimit) {
  const test::ScratchDir dir;
  const auto big = dir.write("big.json", "[" + std::string(kMaxJsonBytes, ' ') + "]");
  try {
    read_json_file(big);
    FAIL() << "a file above the limit was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("at most 16777216 bytes"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace firn::scene

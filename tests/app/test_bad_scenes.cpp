// Broken scene files through the command line: exit code 2, a message naming the file and the field, and no
// output folder left behind.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "app/cli_util.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json tiny_scene() {
  std::ifstream in(std::string(FIRN_TEST_DIR) + "/data/tiny-snowball.json");
  return json::parse(in);
}

struct BrokenScene {
  const char* name;
  std::function<void(json&)> edit;  // applied to the valid tiny scene; null: use `text` instead
  const char* text;                 // raw file content when edit is null
  const char* field;                // must appear in the message
};

}  // namespace

TEST(FirnRun, BrokenScenesGiveExit2NamingTheField) {
  const BrokenScene cases[] = {
      {"missing-field", [](json& j) { j["mpm"]["grid"].erase("spacing"); }, nullptr, "mpm.grid.spacing"},
      {"wrong-type", [](json& j) { j["duration"] = "long"; }, nullptr, "duration"},
      {"negative-spacing", [](json& j) { j["mpm"]["grid"]["spacing"] = -0.01; }, nullptr, "mpm.grid.spacing"},
      {"theta-c-too-big", [](json& j) { j["mpm"]["materials"]["snow"]["critical_compression"] = 1.0; }, nullptr,
       "critical_compression"},
      {"body-outside-grid", [](json& j) { j["mpm"]["bodies"][0]["center"] = json::array({2.0, 0.2, 0.3}); },
       nullptr, "mpm.bodies[0]"},
      {"unknown-material", [](json& j) { j["mpm"]["bodies"][0]["material"] = "ice"; }, nullptr, "ice"},
      {"bad-boundary", [](json& j) { j["colliders"][0]["boundary"] = "glue"; }, nullptr, "colliders[0].boundary"},
      {"malformed-json", nullptr, "{ \"name\": \"x\", \"duration\": 1,, }", "malformed-json.json"},
  };
  const fs::path dir = firn::test::fresh_dir("bad-scenes");
  for (const BrokenScene& c : cases) {
    const fs::path file = dir / (std::string(c.name) + ".json");
    std::ofstream(file) << (c.edit ? [&] { json j = tiny_scene(); c.edit(j); return j.dump(2); }() : c.text);
    const fs::path out = dir / (std::string("out-") + c.name);
    const auto r = firn::test::run_firn("run " + file.string() + " --out " + out.string());
    EXPECT_EQ(r.exit_code, 2) << c.name << "\n" << r.output;
    EXPECT_NE(r.output.find(c.field), std::string::npos) << c.name << ": message does not name " << c.field
                                                         << "\n" << r.output;
    EXPECT_NE(r.output.find(file.filename().string()), std::string::npos) << c.name << ": no file name\n" << r.output;
    EXPECT_FALSE(fs::exists(out)) << c.name << ": output folder left behind";
    std::printf("%-18s -> %s", c.name, r.output.c_str());
  }
}

// Every fuzz regression case of tests/data/fuzz/ (its README.md says where each came from) through `firn run`:
// the expected exit code (2 unless the case's expected_exit says otherwise), never a signal.
#include <gtest/gtest.h>

#include <fstream>

#include "app/cli_util.h"

namespace fs = std::filesystem;

TEST(FuzzRegressions, EveryCaseExitsAsExpectedWithoutASignal) {
  const fs::path cases = fs::path(FIRN_TEST_DIR) / "data" / "fuzz";
  const fs::path out = firn::test::fresh_dir("fuzz-regressions");
  int count = 0;
  for (const auto& entry : fs::directory_iterator(cases)) {
    if (!entry.is_directory()) continue;
    int expected = 2;
    if (std::ifstream in(entry.path() / "expected_exit"); in) in >> expected;
    const std::string name = entry.path().filename().string();
    const auto r = firn::test::run_firn("run " + (entry.path() / "scene.json").string() + " --out " +
                                        (out / name).string() + " --frames 2 --no-render");
    EXPECT_EQ(r.exit_code, expected) << name << " (-1: ended by a signal)\n" << r.output.substr(0, 2000);
    if (expected == 2) {
      EXPECT_NE(r.output.find("allowed: "), std::string::npos) << name << "\n" << r.output;
    }
    ++count;
  }
  EXPECT_GE(count, 5);
}

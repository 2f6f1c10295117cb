// LineAppender (core/paths.h): whole lines, in order, on a file truncated when opened; errors name the file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "core/paths.h"

TEST(LineAppender, AppendsWholeLinesToATruncatedFile) {
  const auto file = std::filesystem::temp_directory_path() / "firn-line-appender.jsonl";
  std::ofstream(file) << "an earlier run's line\n";
  {
    firn::LineAppender out(file);
    out.append("{\"frame\": 0}");
    // Every line is on disk as soon as append returns: a run killed now leaves it complete.
    std::ifstream now(file);
    std::string first;
    std::getline(now, first);
    EXPECT_EQ(first, "{\"frame\": 0}");
    out.append(std::string(100000, 'x'));  // longer than any stream buffer
  }
  std::ifstream in(file);
  std::string a, b, c;
  std::getline(in, a);
  std::getline(in, b);
  EXPECT_EQ(a, "{\"frame\": 0}");
  EXPECT_EQ(b, std::string(100000, 'x'));
  EXPECT_FALSE(std::getline(in, c));
  std::filesystem::remove(file);
}

TEST(LineAppender, UnwritableFileNamesIt) {
  try {
    firn::LineAppender out("/nonexistent-folder/stats.jsonl");
    FAIL() << "opened";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-folder/stats.jsonl"), std::string::npos) << e.what();
  }
}

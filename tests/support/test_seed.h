#pragma once
// Per-test random seeds: a failure can be reproduced from the printed seed.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

namespace firn::test {

/// A seed from the running test's full name (FNV-1a, the same on every standard library), printed so that a failure
/// can be reproduced. Env FIRN_TEST_SEED, when set, is mixed in (soak runs over many seeds).
inline uint64_t test_seed() {
  const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
  const std::string name = std::string(info->test_suite_name()) + "." + info->name();
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : name) {
    h ^= c;
    h *= 1099511628211ull;
  }
  // FIRN_TEST_SEED (an integer) varies every seed at once, for soak runs.
  if (const char* extra = std::getenv("FIRN_TEST_SEED")) h ^= std::strtoull(extra, nullptr, 10) * 0x9E3779B97F4A7C15ull;
  std::printf("[ seed     ] %s: %llu\n", name.c_str(), static_cast<unsigned long long>(h));
  return h;
}

}  // namespace firn::test

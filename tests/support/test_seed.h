#pragma once
// Per-test random seeds: a failure can be reproduced from the printed seed.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

namespace firn::test {

/// The running test's full name, "Suite.Test".
inline std::string test_full_name() {
  const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
  return std::string(info->test_suite_name()) + "." + info->name();
}

/// A seed from the running test's full name alone (FNV-1a, the same on every standard library): not printed and
/// not varied by FIRN_TEST_SEED.
inline uint64_t name_seed() {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : test_full_name()) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

/// A seed from the running test's full name (FNV-1a, the same on every standard library), printed so that a failure
/// can be reproduced. Env FIRN_TEST_SEED, when set, is mixed in (soak runs over many seeds).
inline uint64_t test_seed() {
  const std::string name = test_full_name();
  uint64_t h = name_seed();
  // FIRN_TEST_SEED (an integer) varies every seed at once, for soak runs.
  if (const char* extra = std::getenv("FIRN_TEST_SEED")) h ^= std::strtoull(extra, nullptr, 10) * 0x9E3779B97F4A7C15ull;
  std::printf("[ seed     ] %s: %llu\n", name.c_str(), static_cast<unsigned long long>(h));
  return h;
}

}  // namespace firn::test

// The 64-bit fixed-point sums of shaders/common/fixed64.glsl (the rigid-body impulses, the SPH loads and energy),
// run by a test compute shader (tests/mpm/shaders/fixed64_test.comp): the words of round(x) for values of both
// signs and every magnitude, exact sums of many values in any order, and the overflow report.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "gl/buffer.h"
#include "gl/program.h"
#include "mpm_test_util.h"
#include "support/gl_context.h"

namespace {

struct SumRun {
  std::vector<uint32_t> sums, flags;
  std::vector<glm::uvec2> words;
};

SumRun run(const std::vector<float>& values, const std::vector<int32_t>& slots, size_t accumulators,
        const std::vector<uint32_t>& start) {
  using namespace firn;
  gl::Program prog = gl::Program::compute(std::filesystem::path(FIRN_TEST_DIR) / "mpm/shaders/fixed64_test.comp");
  gl::Buffer v = gl::Buffer::from(values), s = gl::Buffer::from(slots), sums = gl::Buffer::from(start);
  gl::Buffer flags(sizeof(uint32_t) * accumulators), words(sizeof(glm::uvec2) * values.size());
  v.bind_storage(0);
  s.bind_storage(1);
  sums.bind_storage(2);
  flags.bind_storage(3);
  words.bind_storage(4);
  prog.set("count", static_cast<unsigned>(values.size()));
  prog.dispatch_1d(static_cast<unsigned>(values.size()), 64);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  return {sums.read<uint32_t>(), flags.read<uint32_t>(), words.read<glm::uvec2>()};
}

int64_t as_int64(uint32_t lo, uint32_t hi) { return static_cast<int64_t>((uint64_t(hi) << 32) | lo); }

}  // namespace

// Every value's words are round(x) as int64 (ties: GLSL's round may go either way, so only non-ties are drawn),
// and the sums of thousands of values of both signs and magnitudes up to 2^48 in each accumulator are exact.
TEST(Fixed64, WordsAndSumsAreExact) {
  firn::test::gl_context();
  std::mt19937_64 rng(firn::mpmtest::test_seed());
  constexpr size_t kAccumulators = 7;
  std::vector<float> values;
  std::vector<int32_t> slots;
  std::vector<int64_t> want(kAccumulators, 0);
  for (int i = 0; i < 5003; ++i) {
    const double magnitude = std::exp2(firn::mpmtest::uniform(rng, -3.0, 48.0));
    float x = static_cast<float>(magnitude * (rng() % 2 ? 1.0 : -1.0));
    if (x - std::floor(x) == 0.5f) x = std::nextafter(x, 0.0f);
    const int32_t slot = static_cast<int32_t>(rng() % kAccumulators);
    values.push_back(x);
    slots.push_back(slot);
    want[slot] += std::llround(x);
  }
  const SumRun r = run(values, slots, kAccumulators, std::vector<uint32_t>(2 * kAccumulators, 0u));
  for (size_t i = 0; i < values.size(); ++i)
    ASSERT_EQ(as_int64(r.words[i].x, r.words[i].y), std::llround(values[i])) << "value " << values[i];
  for (size_t k = 0; k < kAccumulators; ++k) {
    EXPECT_EQ(as_int64(r.sums[2 * k], r.sums[2 * k + 1]), want[k]) << "accumulator " << k;
    EXPECT_EQ(r.flags[k], 0u);
  }
}

// Overflow is reported, never wrapped silently: a sum pushed past +-2^63, a value at or above 2^62 and a
// non-finite value each set their accumulator's flag; a sum that stays in range near the limit does not.
TEST(Fixed64, OverflowIsReported) {
  firn::test::gl_context();
  const float big = std::ldexp(1.0f, 61);
  // Accumulator 0 starts at 2^63 - 2^61 - 1 and gets 2^61 twice: past the limit. 1 gets 2^62. 2 gets NaN.
  // 3 starts at -2^63 + 2^61 + 1 and gets -2^61 twice. 4 starts at 2^62 and gets 2^61: in range.
  const int64_t top = INT64_MAX - (int64_t{1} << 61);
  const int64_t bottom = INT64_MIN + (int64_t{1} << 61) + 1;
  const int64_t mid = int64_t{1} << 62;
  std::vector<uint32_t> start = {uint32_t(top), uint32_t(uint64_t(top) >> 32), 0, 0, 0, 0,
                                 uint32_t(bottom), uint32_t(uint64_t(bottom) >> 32), uint32_t(mid),
                                 uint32_t(uint64_t(mid) >> 32)};
  const std::vector<float> values = {big, big, 2.0f * big, std::nanf(""), -big, -big, big};
  const std::vector<int32_t> slots = {0, 0, 1, 2, 3, 3, 4};
  const SumRun r = run(values, slots, 5, start);
  EXPECT_NE(r.flags[0], 0u) << "positive sum overflow";
  EXPECT_NE(r.flags[1], 0u) << "value of 2^62";
  EXPECT_NE(r.flags[2], 0u) << "NaN";
  EXPECT_NE(r.flags[3], 0u) << "negative sum overflow";
  EXPECT_EQ(r.flags[4], 0u) << "in range";
  EXPECT_EQ(as_int64(r.sums[8], r.sums[9]), mid + (int64_t{1} << 61));
}

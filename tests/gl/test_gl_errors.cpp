// GL errors are fatal (gl/error.h), dispatches of any size (Program::dispatch_linear), storage block limits, fences
// and the blocking-read count (gl/sync.h).
#include <gtest/gtest.h>

#include <string>

#include "gl/buffer.h"
#include "gl/error.h"
#include "gl/program.h"
#include "gl/sync.h"
#include "gl/timer.h"
#include "support/gl_context.h"

using namespace firn;

namespace {
const std::string kDir = std::string(FIRN_TEST_DIR) + "/gl/shaders/";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST(GlErrors, SplitGroupsCoverEveryGroupWithinTheAxisLimit) {
  EXPECT_EQ(gl::split_groups(1), glm::uvec2(1, 1));
  EXPECT_EQ(gl::split_groups(65535), glm::uvec2(65535, 1));
  EXPECT_EQ(gl::split_groups(65536), glm::uvec2(65535, 2));
  const uint64_t big = uint64_t{65535} * 1000 + 17;
  const glm::uvec2 g = gl::split_groups(big);
  EXPECT_LE(g.x, gl::kMaxGroupsPerAxis);
  EXPECT_GE(uint64_t{g.x} * g.y, big);
  EXPECT_LT(uint64_t{g.x} * (g.y - 1), big);  // no whole row of groups is idle
  EXPECT_THROW(gl::split_groups(uint64_t{65535} * 65535 + 1), gl::GlError);
}

TEST(GlErrors, LinearDispatchBeyondOneAxisRunsEveryIndexOnce) {
  test::gl_context();
  // 65,535 groups of 64 are 4,194,240 invocations, the most one axis allows; go past it by an awkward amount.
  const uint32_t count = 65535u * 64u + 64u * 1237u + 29u;
  gl::Program prog = gl::Program::compute(kDir + "linear_count.comp");
  gl::Buffer hits(sizeof(uint32_t) * (count + 4096));
  hits.bind_storage(0);
  prog.set("count", count);
  prog.dispatch_linear(count, 64);
  const auto h = hits.read<uint32_t>();
  size_t wrong = 0;
  for (size_t i = 0; i < h.size(); ++i) wrong += h[i] != (i < count ? 1u : 0u);
  EXPECT_EQ(wrong, 0u);
}

TEST(GlErrors, OversizedOneAxisDispatchIsRefusedNamingThePass) {
  test::gl_context();
  gl::Program prog = gl::Program::compute(kDir + "linear_count.comp");
  gl::PassScope scope("test_pass");
  try {
    prog.dispatch_1d(65535u * 64u + 1u, 64);
    FAIL() << "no error";
  } catch (const gl::GlError& e) {
    EXPECT_TRUE(contains(e.what(), "test_pass")) << e.what();
    EXPECT_TRUE(contains(e.what(), "65536 work groups")) << e.what();
  }
}

TEST(GlErrors, AGlErrorInAPassThrowsNamingPassCallAndCode) {
  test::gl_context();
  gl::PassTimer timer(false);
  gl::Program prog = gl::Program::compute(kDir + "linear_count.comp");
  try {
    gl::ScopedPass pass(timer, "scatter");
    // A uniform of the wrong type: GL_INVALID_OPERATION from glProgramUniform1f.
    prog.set("count", 1.5f);
    FAIL() << "no error";
  } catch (const gl::GlError& e) {
    const std::string m = e.what();
    std::printf("%s\n", m.c_str());
    EXPECT_TRUE(contains(m, "pass scatter")) << m;
    EXPECT_TRUE(contains(m, "glProgramUniform1f")) << m;
    EXPECT_TRUE(contains(m, "GL_INVALID_OPERATION")) << m;
  }
  EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));  // drained
  EXPECT_STREQ(gl::current_pass(), "(no pass)");
  EXPECT_NO_THROW(gl::check("nothing"));
}

TEST(GlErrors, BufferOverTheStorageBlockLimitIsBoundInRangesOnly) {
  test::gl_context();
  const size_t limit = gl::max_storage_block_bytes();
  std::printf("GL_MAX_SHADER_STORAGE_BLOCK_SIZE %zu, offset alignment %zu\n", limit, gl::storage_offset_alignment());
  ASSERT_GE(limit, size_t{1} << 24);  // GL 4.3 guarantees 2^24
  gl::Buffer big(limit + 256);
  EXPECT_THROW(big.bind_storage(0), gl::GlError);
  EXPECT_NO_THROW(big.bind_storage_range(0, 256, limit));
  gl::Buffer fits(limit);
  EXPECT_NO_THROW(fits.bind_storage(0));
}

TEST(GlErrors, FencedReadIsNotBlockingOnceSignalledAndPlainReadsAreCounted) {
  test::gl_context();
  gl::Buffer b(64);
  uint32_t v[4];
  const uint64_t before = gl::blocking_reads();
  b.download(0, sizeof v, v);
  EXPECT_EQ(gl::blocking_reads(), before + 1);
  gl::Fence f = gl::Fence::insert();
  glFinish();
  EXPECT_TRUE(f.signalled());
  b.download_fenced(f, 0, sizeof v, v);  // signalled: no wait
  EXPECT_EQ(gl::blocking_reads(), before + 1);
  f.wait();  // a wait the caller asks for is a synchronisation point, signalled or not
  EXPECT_EQ(gl::blocking_reads(), before + 2);
  EXPECT_TRUE(gl::Fence().signalled());
}

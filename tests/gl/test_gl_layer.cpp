// The GL layer on the headless EGL context: entry points, RAII buffers, the include-aware shader loader with
// file:line errors, and timestamp queries.
#include <gtest/gtest.h>

#include <cstring>

#include "gl/buffer.h"
#include "gl/program.h"
#include "gl/shader_source.h"
#include "gl/timer.h"
#include "support/gl_context.h"

using namespace firn;

namespace {
const std::string kDir = std::string(FIRN_TEST_DIR) + "/gl/shaders/";
}

TEST(GlLayer, HeadlessContextIsOpenGL43CoreWithCompute) {
  const auto& info = test::gl_context().info();
  GLint major = 0, minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  std::printf("%s | %s | %s\n", info.vendor.c_str(), info.renderer.c_str(), info.version.c_str());
  EXPECT_GE(major * 10 + minor, 43);
  EXPECT_NE(glDispatchCompute, nullptr);
  EXPECT_NE(glMemoryBarrier, nullptr);
  EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
}

TEST(GlLayer, BufferRoundTripAndMove) {
  test::gl_context();
  std::vector<float> data(1237);
  for (size_t i = 0; i < data.size(); ++i) data[i] = 0.5f * static_cast<float>(i) - 3.0f;
  gl::Buffer a = gl::Buffer::from(data);
  const GLuint id = a.id();
  gl::Buffer b = std::move(a);
  EXPECT_EQ(a.id(), 0u);
  EXPECT_EQ(b.id(), id);
  EXPECT_EQ(b.read<float>(), data);
  b.clear();
  for (float v : b.read<float>()) ASSERT_EQ(v, 0.0f);
  EXPECT_TRUE(glIsBuffer(id));
  { gl::Buffer gone = std::move(b); }
  EXPECT_FALSE(glIsBuffer(id));
}

TEST(GlLayer, IncludeIsPastedOnceAndDefinesAreInserted) {
  test::gl_context();
  const auto src = gl::load_shader_source(kDir + "twice_main.comp", {"#define OFFSET 7.0"});
  EXPECT_EQ(src.files.size(), 2u);
  size_t count = 0;
  for (size_t p = src.text.find("float twice("); p != std::string::npos; p = src.text.find("float twice(", p + 1))
    ++count;
  EXPECT_EQ(count, 1u);
  gl::Program prog = gl::Program::compute(kDir + "twice_main.comp", {"#define OFFSET 7.0"});
  gl::Buffer out(sizeof(float) * 37);
  out.bind_storage(0);
  glUseProgram(prog.id());
  glDispatchCompute(37, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  const auto values = out.read<float>();
  for (int i = 0; i < 37; ++i) EXPECT_EQ(values[static_cast<size_t>(i)], 2.0f * static_cast<float>(i) + 7.0f);
}

TEST(GlLayer, CompileErrorNamesIncludedFileAndLine) {
  test::gl_context();
  try {
    gl::Program::compute(kDir + "broken_main.comp");
    FAIL() << "the broken shader compiled";
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    std::printf("%s\n", msg.c_str());
    EXPECT_NE(msg.find("broken_include.glsl:4:"), std::string::npos) << msg;
  }
}

TEST(GlLayer, IncludeCycleAndMissingFileAreReported) {
  test::gl_context();
  try {
    gl::load_shader_source(kDir + "cycle_main.comp");
    FAIL() << "no error for an include cycle";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("include cycle"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cycle_b.glsl:1"), std::string::npos) << e.what();
  }
  EXPECT_THROW(gl::load_shader_source(kDir + "no_such_file.comp"), std::runtime_error);
}

TEST(GlLayer, CompilerLogsOfMesaAndNvidiaMapToFileLine) {
  gl::ShaderSource src;
  src.files = {"main.comp", "lib.glsl"};
  const std::string mesa = gl::map_compiler_log(src, "0:100012(5): error: `x' undeclared\n");
  const std::string nvidia = gl::map_compiler_log(src, "1(7) : error C1008: undefined variable \"y\"\n");
  EXPECT_NE(mesa.find("lib.glsl:12: error"), std::string::npos) << mesa;
  EXPECT_NE(nvidia.find("main.comp:7: error C1008"), std::string::npos) << nvidia;
}

TEST(GlLayer, PassTimerAccumulatesNamedPasses) {
  test::gl_context();
  gl::Program prog = gl::Program::compute(kDir + "twice_main.comp", {"#define OFFSET 1.0"});
  gl::Buffer out(sizeof(float) * 1024);
  out.bind_storage(0);
  gl::PassTimer timer(true);
  for (int k = 0; k < 3; ++k) {
    gl::ScopedPass a(timer, "first");
    prog.dispatch_1d(1024, 1);
  }
  {
    gl::ScopedPass b(timer, "second");
    prog.dispatch_1d(1024, 1);
  }
  timer.resolve();
  ASSERT_EQ(timer.passes().size(), 2u);
  EXPECT_EQ(timer.passes()[0].name, "first");
  EXPECT_EQ(timer.passes()[0].samples, 3);
  EXPECT_EQ(timer.passes()[1].samples, 1);
  EXPECT_GE(timer.passes()[0].total_ms, 0.0);
}

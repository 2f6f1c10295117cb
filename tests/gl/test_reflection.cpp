// gl::program_blocks against layouts that follow from the std430 / std140 rules of the GLSL 4.30 spec
// (Sec. 4.4.5, and the GL 4.3 spec Sec. 7.6.2.2) for a probe shader, and gl::type_bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "gl/program.h"
#include "gl/reflection.h"
#include "support/gl_context.h"

using namespace firn;

namespace {

const gl::BlockLayout& block(const std::vector<gl::BlockLayout>& blocks, const std::string& name) {
  const auto b = std::find_if(blocks.begin(), blocks.end(), [&](const auto& b) { return b.name == name; });
  if (b == blocks.end()) throw std::runtime_error("no block " + name);
  return *b;
}

const gl::BlockVariable& variable(const gl::BlockLayout& b, const std::string& name) {
  const auto v = std::find_if(b.variables.begin(), b.variables.end(), [&](const auto& v) { return v.name == name; });
  if (v == b.variables.end()) throw std::runtime_error("no variable " + name + " in " + b.name);
  return *v;
}

}  // namespace

TEST(Reflection, StorageBlockOfStructsFollowsStd430) {
  test::gl_context();
  const gl::Program p = gl::Program::compute(std::string(FIRN_TEST_DIR) + "/gl/shaders/layout_probe.comp");
  const auto blocks = gl::program_blocks(p.id());
  const gl::BlockLayout& b = block(blocks, "ProbeBuffer");
  EXPECT_TRUE(b.storage);
  EXPECT_EQ(b.binding, 5);
  EXPECT_EQ(b.variables.size(), 6u);
  const struct {
    const char* name;
    GLenum type;
    int offset, array_size, array_stride, matrix_stride;
  } expected[] = {{"probes[0].a", GL_FLOAT_VEC3, 0, 1, 0, 0},     {"probes[0].b", GL_FLOAT, 12, 1, 0, 0},
                  {"probes[0].c", GL_FLOAT_VEC2, 16, 1, 0, 0},    {"probes[0].d", GL_DOUBLE, 24, 1, 0, 0},
                  {"probes[0].m", GL_FLOAT_MAT3x4, 32, 1, 0, 16}, {"probes[0].e[0]", GL_UNSIGNED_INT, 80, 3, 4, 0}};
  for (const auto& e : expected) {
    const gl::BlockVariable& v = variable(b, e.name);
    EXPECT_EQ(v.type, e.type) << e.name;
    EXPECT_EQ(v.offset, e.offset) << e.name;
    EXPECT_EQ(v.array_size, e.array_size) << e.name;
    EXPECT_EQ(v.array_stride, e.array_stride) << e.name;
    EXPECT_EQ(v.matrix_stride, e.matrix_stride) << e.name;
    EXPECT_EQ(v.top_level_array_stride, 96) << e.name;
  }
}

TEST(Reflection, NamedStorageBlockAndUniformBlock) {
  test::gl_context();
  const gl::Program p = gl::Program::compute(std::string(FIRN_TEST_DIR) + "/gl/shaders/layout_probe.comp");
  const auto blocks = gl::program_blocks(p.id());
  // A block with an instance name: GL names its variables after the block, not the instance.
  const gl::BlockLayout& n = block(blocks, "Named");
  EXPECT_EQ(n.binding, 6);
  EXPECT_EQ(variable(n, "Named.x").offset, 0);
  EXPECT_EQ(variable(n, "Named.y").offset, 32);
  EXPECT_EQ(variable(n, "Named.y").type, GLenum(GL_DOUBLE_VEC3));
  EXPECT_GE(n.data_size, 56);  // y ends at 56; implementations may round up
  const gl::BlockLayout& u = block(blocks, "ProbeParams");
  EXPECT_FALSE(u.storage);
  EXPECT_EQ(u.binding, 3);
  EXPECT_EQ(u.variables.size(), 3u);
  EXPECT_EQ(variable(u, "f").offset, 0);
  EXPECT_EQ(variable(u, "g").offset, 16);
  EXPECT_EQ(variable(u, "h[0]").offset, 32);
  EXPECT_EQ(variable(u, "h[0]").array_size, 2);
  EXPECT_EQ(variable(u, "h[0]").array_stride, 16);
  EXPECT_EQ(u.data_size, 64);
}

TEST(Reflection, TypeBytes) {
  EXPECT_EQ(gl::type_bytes(GL_FLOAT_VEC3), 12u);
  EXPECT_EQ(gl::type_bytes(GL_UNSIGNED_INT_VEC4), 16u);
  EXPECT_EQ(gl::type_bytes(GL_DOUBLE_VEC2), 16u);
  EXPECT_EQ(gl::type_bytes(GL_FLOAT_MAT3x4, 16), 48u);
  EXPECT_EQ(gl::type_bytes(GL_DOUBLE_MAT2, 16), 32u);
  EXPECT_THROW(gl::type_bytes(GL_FLOAT_MAT3), std::invalid_argument);  // a matrix needs its stride
  EXPECT_THROW(gl::type_bytes(GL_SAMPLER_2D), std::invalid_argument);
  EXPECT_EQ(gl::type_name(GL_DOUBLE_MAT3x4), "dmat3x4");
}

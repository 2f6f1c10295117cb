#include "gl/reflection.h"

#include <array>
#include <cstdio>
#include <stdexcept>

#include "gl/error.h"

namespace firn::gl {
namespace {

/// A GLSL basic type: its GL_TYPE code, spelling, component size [B], rows (vector length) and columns.
struct TypeInfo {
  GLenum type;
  const char* name;
  int scalar_bytes;
  int rows;
  int columns;
};

constexpr std::array kTypes = {
    TypeInfo{GL_FLOAT, "float", 4, 1, 1},          TypeInfo{GL_FLOAT_VEC2, "vec2", 4, 2, 1},
    TypeInfo{GL_FLOAT_VEC3, "vec3", 4, 3, 1},      TypeInfo{GL_FLOAT_VEC4, "vec4", 4, 4, 1},
    TypeInfo{GL_INT, "int", 4, 1, 1},              TypeInfo{GL_INT_VEC2, "ivec2", 4, 2, 1},
    TypeInfo{GL_INT_VEC3, "ivec3", 4, 3, 1},       TypeInfo{GL_INT_VEC4, "ivec4", 4, 4, 1},
    TypeInfo{GL_UNSIGNED_INT, "uint", 4, 1, 1},    TypeInfo{GL_UNSIGNED_INT_VEC2, "uvec2", 4, 2, 1},
    TypeInfo{GL_UNSIGNED_INT_VEC3, "uvec3", 4, 3, 1}, TypeInfo{GL_UNSIGNED_INT_VEC4, "uvec4", 4, 4, 1},
    TypeInfo{GL_BOOL, "bool", 4, 1, 1},            TypeInfo{GL_BOOL_VEC2, "bvec2", 4, 2, 1},
    TypeInfo{GL_BOOL_VEC3, "bvec3", 4, 3, 1},      TypeInfo{GL_BOOL_VEC4, "bvec4", 4, 4, 1},
    TypeInfo{GL_DOUBLE, "double", 8, 1, 1},        TypeInfo{GL_DOUBLE_VEC2, "dvec2", 8, 2, 1},
    TypeInfo{GL_DOUBLE_VEC3, "dvec3", 8, 3, 1},    TypeInfo{GL_DOUBLE_VEC4, "dvec4", 8, 4, 1},
    TypeInfo{GL_FLOAT_MAT2, "mat2", 4, 2, 2},      TypeInfo{GL_FLOAT_MAT2x3, "mat2x3", 4, 3, 2},
    TypeInfo{GL_FLOAT_MAT2x4, "mat2x4", 4, 4, 2},  TypeInfo{GL_FLOAT_MAT3x2, "mat3x2", 4, 2, 3},
    TypeInfo{GL_FLOAT_MAT3, "mat3", 4, 3, 3},      TypeInfo{GL_FLOAT_MAT3x4, "mat3x4", 4, 4, 3},
    TypeInfo{GL_FLOAT_MAT4x2, "mat4x2", 4, 2, 4},  TypeInfo{GL_FLOAT_MAT4x3, "mat4x3", 4, 3, 4},
    TypeInfo{GL_FLOAT_MAT4, "mat4", 4, 4, 4},      TypeInfo{GL_DOUBLE_MAT2, "dmat2", 8, 2, 2},
    TypeInfo{GL_DOUBLE_MAT2x3, "dmat2x3", 8, 3, 2}, TypeInfo{GL_DOUBLE_MAT2x4, "dmat2x4", 8, 4, 2},
    TypeInfo{GL_DOUBLE_MAT3x2, "dmat3x2", 8, 2, 3}, TypeInfo{GL_DOUBLE_MAT3, "dmat3", 8, 3, 3},
    TypeInfo{GL_DOUBLE_MAT3x4, "dmat3x4", 8, 4, 3}, TypeInfo{GL_DOUBLE_MAT4x2, "dmat4x2", 8, 2, 4},
    TypeInfo{GL_DOUBLE_MAT4x3, "dmat4x3", 8, 3, 4}, TypeInfo{GL_DOUBLE_MAT4, "dmat4", 8, 4, 4},
};

const TypeInfo* find_type(GLenum type) {
  for (const TypeInfo& t : kTypes)
    if (t.type == type) return &t;
  return nullptr;
}

std::string resource_name(GLuint program, GLenum interface, GLuint index, GLint length) {
  std::string name(static_cast<size_t>(length > 0 ? length : 1), '\0');
  GLsizei written = 0;
  glGetProgramResourceName(program, interface, index, static_cast<GLsizei>(name.size()), &written, name.data());
  check("glGetProgramResourceName");
  name.resize(static_cast<size_t>(written));
  return name;
}

/// Every block of one interface (GL_SHADER_STORAGE_BLOCK or GL_UNIFORM_BLOCK), variables not yet filled in.
std::vector<BlockLayout> blocks_of(GLuint program, GLenum interface) {
  GLint count = 0;
  glGetProgramInterfaceiv(program, interface, GL_ACTIVE_RESOURCES, &count);
  check("glGetProgramInterfaceiv");
  std::vector<BlockLayout> blocks;
  for (GLint i = 0; i < count; ++i) {
    const GLenum props[] = {GL_NAME_LENGTH, GL_BUFFER_BINDING, GL_BUFFER_DATA_SIZE};
    GLint v[3] = {};
    glGetProgramResourceiv(program, interface, static_cast<GLuint>(i), 3, props, 3, nullptr, v);
    check("glGetProgramResourceiv");
    BlockLayout b;
    b.name = resource_name(program, interface, static_cast<GLuint>(i), v[0]);
    b.storage = interface == GL_SHADER_STORAGE_BLOCK;
    b.binding = v[1];
    b.data_size = v[2];
    blocks.push_back(std::move(b));
  }
  return blocks;
}

/// Fills `blocks` (one interface's blocks, in resource-index order) with the variables of `interface`
/// (GL_BUFFER_VARIABLE or GL_UNIFORM); uniforms outside any block (block index -1) are skipped.
void add_variables(GLuint program, GLenum interface, std::vector<BlockLayout>& blocks) {
  GLint count = 0;
  glGetProgramInterfaceiv(program, interface, GL_ACTIVE_RESOURCES, &count);
  check("glGetProgramInterfaceiv");
  const bool storage = interface == GL_BUFFER_VARIABLE;
  // GL_TOP_LEVEL_ARRAY_STRIDE is a property of buffer variables only (GL 4.3 Table 7.2).
  const GLenum props[] = {GL_NAME_LENGTH,   GL_BLOCK_INDEX,   GL_TYPE, GL_OFFSET, GL_ARRAY_SIZE, GL_ARRAY_STRIDE,
                          GL_MATRIX_STRIDE, GL_TOP_LEVEL_ARRAY_STRIDE};
  const GLsizei n_props = storage ? 8 : 7;
  for (GLint i = 0; i < count; ++i) {
    GLint v[8] = {};
    glGetProgramResourceiv(program, interface, static_cast<GLuint>(i), n_props, props, n_props, nullptr, v);
    check("glGetProgramResourceiv");
    if (v[1] < 0) continue;
    if (static_cast<size_t>(v[1]) >= blocks.size())
      throw GlError("program " + std::to_string(program) + ": variable " + std::to_string(i) + " names block " +
                    std::to_string(v[1]) + " of " + std::to_string(blocks.size()));
    BlockVariable var;
    var.name = resource_name(program, interface, static_cast<GLuint>(i), v[0]);
    var.type = static_cast<GLenum>(v[2]);
    var.offset = v[3];
    var.array_size = v[4];
    var.array_stride = v[5];
    var.matrix_stride = v[6];
    var.top_level_array_stride = storage ? v[7] : 0;
    blocks[static_cast<size_t>(v[1])].variables.push_back(std::move(var));
  }
}

}  // namespace

std::vector<BlockLayout> program_blocks(GLuint program) {
  PassScope scope("program reflection");
  std::vector<BlockLayout> storage = blocks_of(program, GL_SHADER_STORAGE_BLOCK);
  add_variables(program, GL_BUFFER_VARIABLE, storage);
  std::vector<BlockLayout> uniform = blocks_of(program, GL_UNIFORM_BLOCK);
  add_variables(program, GL_UNIFORM, uniform);
  for (BlockLayout& b : uniform) storage.push_back(std::move(b));
  return storage;
}

size_t type_bytes(GLenum type, int matrix_stride) {
  const TypeInfo* t = find_type(type);
  if (t == nullptr) throw std::invalid_argument("gl::type_bytes: " + type_name(type) + " is not a basic type");
  if (t->columns == 1) return static_cast<size_t>(t->scalar_bytes * t->rows);
  if (matrix_stride <= 0) throw std::invalid_argument("gl::type_bytes: " + type_name(type) + " needs a matrix stride");
  return static_cast<size_t>(t->columns * matrix_stride);
}

std::string type_name(GLenum type) {
  if (const TypeInfo* t = find_type(type)) return t->name;
  char text[16];
  std::snprintf(text, sizeof text, "0x%04X", type);
  return text;
}

}  // namespace firn::gl

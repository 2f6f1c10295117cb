#pragma once
/// Program introspection (GL 4.3 program interface query): the byte layout a linked program gives its shader storage
/// blocks and uniform blocks, so that the C++ mirrors of the shaders' structs can be checked against what the GLSL
/// compiler actually laid out (tests/gl/test_struct_layouts.cpp, docs/gpu-structs.md).
#include <cstddef>
#include <string>
#include <vector>

#include "gl/gl.h"

namespace firn::gl {

/// One variable of a block as the linked program lays it out: a GL_BUFFER_VARIABLE of a shader storage block or a
/// GL_UNIFORM of a uniform block. Struct members and arrays of structs are flattened by GL into one entry per basic
/// member, named with the path from the block: "particles[0].fe[0]" (block without instance name),
/// "MpmStep.time" (block with an instance name: GL prefixes the block's name, not the instance's).
struct BlockVariable {
  std::string name;
  GLenum type = 0;                 ///< GL_TYPE: GL_FLOAT_VEC4, GL_UNSIGNED_INT, GL_DOUBLE, GL_FLOAT_MAT3x4, ...
  int offset = 0;                  ///< GL_OFFSET: bytes from the start of the block (element 0 of any array) [B]
  int array_size = 0;              ///< GL_ARRAY_SIZE: elements of the innermost array; 1 when not an array, 0 unsized
  int array_stride = 0;            ///< GL_ARRAY_STRIDE: bytes between those elements; 0 when not an array [B]
  int matrix_stride = 0;           ///< GL_MATRIX_STRIDE: bytes between columns of a column-major matrix, else 0 [B]
  int top_level_array_stride = 0;  ///< GL_TOP_LEVEL_ARRAY_STRIDE (storage blocks only, else 0): bytes between the
                                   ///< elements of the block's top-level array member this variable belongs to [B]
};

/// A shader storage block or uniform block of a linked program.
struct BlockLayout {
  std::string name;   ///< the block's name in GLSL ("ParticleBuffer"), not its instance name
  bool storage = false;  ///< true: shader storage block; false: uniform block
  int binding = 0;    ///< GL_BUFFER_BINDING: the binding point the shader declared
  int data_size = 0;  ///< GL_BUFFER_DATA_SIZE: bytes the block needs; an unsized last array counts one element [B]
  std::vector<BlockVariable> variables;  ///< every variable GL reports for the block, in its order
};

/// Every active shader storage block and uniform block of the linked program `program`, with their variables
/// (glGetProgramInterfaceiv, glGetProgramResourceiv, glGetProgramResourceName). Needs a current GL 4.3 context.
/// Throws GlError when a query fails (for example when `program` is not a linked program).
std::vector<BlockLayout> program_blocks(GLuint program);

/// Bytes that one value of the GLSL basic type `type` (a GL_TYPE code) spans in a std430 or std140 block when its
/// matrix columns are `matrix_stride` bytes apart (ignored for scalars and vectors): GL_FLOAT_VEC3 -> 12,
/// GL_DOUBLE_VEC2 -> 16, GL_FLOAT_MAT3x4 with stride 16 -> 48. Throws std::invalid_argument for a type code that is
/// not a scalar, vector or matrix of float, double, int, uint or bool, or for a matrix with matrix_stride <= 0.
size_t type_bytes(GLenum type, int matrix_stride = 0);

/// The GLSL spelling of a GL_TYPE code ("vec4", "dmat3x4"), or its number in hex, for messages.
std::string type_name(GLenum type);

}  // namespace firn::gl

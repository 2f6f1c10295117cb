#pragma once
/// RAII owners of the GL objects the renderer creates besides buffers and programs (src/gl has those).
#include "gl/handle.h"

namespace firn::render {

namespace detail {
void delete_vertex_array(GLuint id);
void delete_framebuffer(GLuint id);
void delete_renderbuffer(GLuint id);
}  // namespace detail

/// A vertex array object. Move-only.
using VertexArray = gl::Handle<detail::delete_vertex_array>;
/// A framebuffer object. Move-only.
using Framebuffer = gl::Handle<detail::delete_framebuffer>;
/// A renderbuffer object. Move-only.
using Renderbuffer = gl::Handle<detail::delete_renderbuffer>;

/// Creates an empty vertex array object (core profiles need one bound even for attribute-less draws).
VertexArray make_vertex_array();

/// Size of GL buffer `buffer` [bytes]; throws std::runtime_error naming `what` when `buffer` is not a buffer object.
long long buffer_size(unsigned buffer, const char* what);

}  // namespace firn::render

#pragma once
/// RAII owners of the GL objects the renderer creates besides buffers and programs (src/gl has those).
#include <initializer_list>

#include "gl/handle.h"

namespace firn::render {

namespace detail {
void delete_vertex_array(GLuint id);
void delete_framebuffer(GLuint id);
void delete_renderbuffer(GLuint id);
void delete_texture(GLuint id);
}  // namespace detail

/// A vertex array object. Move-only.
using VertexArray = gl::Handle<detail::delete_vertex_array>;
/// A framebuffer object. Move-only.
using Framebuffer = gl::Handle<detail::delete_framebuffer>;
/// A renderbuffer object. Move-only.
using Renderbuffer = gl::Handle<detail::delete_renderbuffer>;
/// A texture object. Move-only.
using Texture = gl::Handle<detail::delete_texture>;

/// Creates an empty vertex array object (core profiles need one bound even for attribute-less draws).
VertexArray make_vertex_array();

/// A `width` x `height` 2-D texture of `internal_format` (e.g. GL_R32F) with one mip level, nearest filtering and
/// clamp-to-edge wrapping (the fluid passes read it texel by texel). Contents undefined until drawn or uploaded.
Texture make_texture_2d(GLenum internal_format, int width, int height);

/// A renderbuffer of `format` (e.g. GL_DEPTH_COMPONENT24), `width` x `height` pixels.
Renderbuffer make_renderbuffer(GLenum format, int width, int height);

/// One image of a framebuffer: texture or renderbuffer `name` at attachment `point` (e.g. GL_COLOR_ATTACHMENT0).
struct Attachment {
  GLenum point;       ///< GL_COLOR_ATTACHMENT0, GL_DEPTH_ATTACHMENT, ...
  GLuint name;        ///< texture (level 0) or renderbuffer name
  bool renderbuffer;  ///< true: `name` is a renderbuffer, false: a 2-D texture
};

/// A framebuffer object with `attachments`. Leaves framebuffer 0 bound. Throws std::runtime_error naming `what` and
/// the status code when the framebuffer is incomplete.
Framebuffer make_framebuffer(std::initializer_list<Attachment> attachments, const char* what);

/// Size of GL buffer `buffer` [bytes]; throws std::runtime_error naming `what` when `buffer` is not a buffer object.
long long buffer_size(unsigned buffer, const char* what);

}  // namespace firn::render

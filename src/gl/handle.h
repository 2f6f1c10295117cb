#pragma once
/// A move-only owner of one GL object name, the base of firn's RAII GL types.
#include <utility>

#include "gl/gl.h"

namespace firn::gl {

/// Owns a GL object name and deletes it with `Deleter` on destruction. Move-only; 0 means "no object".
template <void (*Deleter)(GLuint)>
class Handle {
 public:
  Handle() = default;
  explicit Handle(GLuint id) : id_(id) {}
  ~Handle() { reset(); }
  Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, 0)) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = std::exchange(o.id_, 0);
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

  GLuint id() const { return id_; }
  explicit operator bool() const { return id_ != 0; }
  void reset() {
    if (id_) Deleter(id_);
    id_ = 0;
  }

 private:
  GLuint id_ = 0;
};

}  // namespace firn::gl

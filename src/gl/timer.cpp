#include "gl/timer.h"

#include <cstring>

namespace firn::gl {

PassTimer::PassTimer(bool enabled) : enabled_(enabled) {}

PassTimer::~PassTimer() {
  for (const auto& p : pending_) {
    free_.push_back(p.begin);
    free_.push_back(p.end);
  }
  if (!free_.empty()) glDeleteQueries(static_cast<GLsizei>(free_.size()), free_.data());
}

GLuint PassTimer::take_query() {
  if (free_.empty()) {
    free_.resize(64);
    glGenQueries(64, free_.data());
  }
  GLuint q = free_.back();
  free_.pop_back();
  return q;
}

void PassTimer::begin(const char* name) {
  if (!enabled_) return;
  size_t index = 0;
  while (index < passes_.size() && passes_[index].name != name) ++index;
  if (index == passes_.size()) passes_.push_back({name});
  const GLuint q = take_query();
  glQueryCounter(q, GL_TIMESTAMP);
  pending_.push_back({q, 0, index});
}

void PassTimer::end() {
  if (!enabled_ || pending_.empty() || pending_.back().end) return;
  pending_.back().end = take_query();
  glQueryCounter(pending_.back().end, GL_TIMESTAMP);
}

void PassTimer::resolve() {
  for (const auto& p : pending_) {
    if (!p.end) continue;
    GLuint64 t0 = 0, t1 = 0;
    glGetQueryObjectui64v(p.begin, GL_QUERY_RESULT, &t0);
    glGetQueryObjectui64v(p.end, GL_QUERY_RESULT, &t1);
    passes_[p.pass].total_ms += static_cast<double>(t1 - t0) * 1e-6;
    passes_[p.pass].samples += 1;
    free_.push_back(p.end);
    free_.push_back(p.begin);
  }
  std::erase_if(pending_, [](const Pending& p) { return p.end != 0; });
}

}  // namespace firn::gl

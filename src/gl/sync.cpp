#include "gl/sync.h"

#include <algorithm>
#include <string>
#include <utility>

#include "gl/error.h"

namespace firn::gl {
namespace {
thread_local uint64_t t_blocking_reads = 0;
thread_local bool t_late_fences = false;
thread_local uint64_t t_fences_inserted = 0, t_fences_waited = 0;  // sequence numbers (set_late_fences)
}

void set_late_fences(bool on) { t_late_fences = on; }

uint64_t blocking_reads() { return t_blocking_reads; }
void count_blocking_read() { ++t_blocking_reads; }

void storage_barrier() { glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT); }
void dispatch_args_barrier() {
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
}

Fence Fence::insert() {
  Fence f;
  f.sync_ = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  f.sequence_ = ++t_fences_inserted;
  check("glFenceSync");
  glFlush();
  return f;
}

Fence::~Fence() {
  if (sync_) glDeleteSync(sync_);
}

Fence::Fence(Fence&& other) noexcept
    : sync_(std::exchange(other.sync_, nullptr)), sequence_(other.sequence_) {}

Fence& Fence::operator=(Fence&& other) noexcept {
  if (this != &other) {
    if (sync_) glDeleteSync(sync_);
    sync_ = std::exchange(other.sync_, nullptr);
    sequence_ = other.sequence_;
  }
  return *this;
}

bool Fence::signalled() const {
  if (!sync_) return true;
  if (t_late_fences && sequence_ > t_fences_waited) return false;
  GLint status = GL_UNSIGNALED;
  glGetSynciv(sync_, GL_SYNC_STATUS, 1, nullptr, &status);
  check("glGetSynciv");
  return status == GL_SIGNALED;
}

void Fence::wait() const {
  count_blocking_read();
  if (!sync_) return;
  t_fences_waited = std::max(t_fences_waited, sequence_);
  for (;;) {
    const GLenum r = glClientWaitSync(sync_, GL_SYNC_FLUSH_COMMANDS_BIT, 1'000'000'000);
    check("glClientWaitSync");
    if (r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED) return;
    if (r == GL_WAIT_FAILED)
      throw GlError("GL error in pass " + std::string(current_pass()) + " at glClientWaitSync: wait failed");
  }
}

}  // namespace firn::gl

#pragma once
/// CPU-GPU synchronisation: fences for asynchronous read-backs, and a count of the blocking reads (the CPU waiting
/// for the GPU) that `firn bench` reports per substep.
#include <cstdint>

#include "gl/gl.h"

namespace firn::gl {

/// CPU waits for GPU results on this thread so far (Buffer::download, Fence::wait): the round trips that stall a
/// real GPU's queue. Counted by the gl/ helpers, never by solver code.
uint64_t blocking_reads();
/// Adds one to blocking_reads() (called by the gl/ helpers that wait).
void count_blocking_read();

/// Test hook for this thread: with `on`, a fence reads as signalled only once it, or a fence inserted after it, has
/// been waited for, as on a GPU that runs behind the CPU. llvmpipe runs each dispatch inside its GL call, so its
/// fences have always signalled when polled, which hid how often GPU-resident stepping waited on a real GPU (seen on
/// an H200, 2026-11-27). Results must not change with it, only the waits.
void set_late_fences(bool on);

/// Makes shader storage writes of the commands issued so far visible to later shader reads and writes and to
/// buffer reads (glMemoryBarrier): between compute passes that hand buffers to each other.
void storage_barrier();
/// storage_barrier() plus the shader-written arguments of later indirect dispatches (GL_COMMAND_BARRIER_BIT): after
/// a pass that writes the group counts another pass is dispatched with (Program::dispatch_indirect).
void dispatch_args_barrier();

/// A GL sync object marking the commands issued before it (glFenceSync). Move-only; an empty Fence is signalled.
class Fence {
 public:
  Fence() = default;
  /// Inserts a fence after the commands issued so far and flushes them, so that it signals without a later wait.
  static Fence insert();
  ~Fence();
  Fence(Fence&& other) noexcept;
  Fence& operator=(Fence&& other) noexcept;
  Fence(const Fence&) = delete;
  Fence& operator=(const Fence&) = delete;

  bool empty() const { return sync_ == nullptr; }
  /// True when the GPU has passed the fence (does not wait, not a blocking read).
  bool signalled() const;
  /// Waits until the GPU has passed the fence. Counts one blocking read, signalled or not: the caller needs the
  /// result before it can go on, which on a GPU that runs behind the CPU is a stall.
  void wait() const;

 private:
  GLsync sync_ = nullptr;
  uint64_t sequence_ = 0;  // order of insertion on this thread (set_late_fences)
};

}  // namespace firn::gl

#pragma once
/// Per-pass GPU times from GL_TIMESTAMP queries.
#include <string>
#include <vector>

#include "gl/error.h"
#include "gl/gl.h"

namespace firn::gl {

/// Accumulated time of one named pass: GPU time from timestamp queries, or CPU wall time for a pass that runs on
/// the CPU (the grains' step), which tables must not add to a GPU total.
struct PassTime {
  std::string name;
  double total_ms = 0.0;  ///< sum of the time over all samples [ms]
  long samples = 0;       ///< number of begin/end pairs measured
  bool cpu = false;       ///< true: CPU wall time (a CPU pass); false: GPU time
  double mean_ms() const { return samples ? total_ms / static_cast<double>(samples) : 0.0; }
};

/// Brackets GPU passes with timestamp queries (glQueryCounter) and accumulates their durations by name.
/// When disabled every call is a no-op, so solvers can always call it. Not copyable.
class PassTimer {
 public:
  explicit PassTimer(bool enabled = false);
  ~PassTimer();
  PassTimer(const PassTimer&) = delete;
  PassTimer& operator=(const PassTimer&) = delete;

  bool enabled() const { return enabled_; }
  void set_enabled(bool on) { enabled_ = on; }
  /// Records the GPU timestamp before the commands of pass `name`.
  void begin(const char* name);
  /// Records the GPU timestamp after the pass begun last.
  void end();
  /// Waits for all recorded timestamps and adds their durations to the per-pass totals.
  void resolve();
  /// Per-pass totals in first-seen order.
  const std::vector<PassTime>& passes() const { return passes_; }
  /// Forgets the totals (keeps the queries).
  void clear() { passes_.clear(); }

 private:
  struct Pending {
    GLuint begin, end;
    size_t pass;
  };
  GLuint take_query();
  bool enabled_;
  std::vector<GLuint> free_;
  std::vector<Pending> pending_;
  std::vector<PassTime> passes_;
};

/// RAII bracket: `ScopedPass p(timer, "p2g");` times the enclosed commands and names them for GL error messages
/// (a PassScope; `name` must outlive the scope).
class ScopedPass {
 public:
  ScopedPass(PassTimer& t, const char* name) : t_(t), scope_(name) { t_.begin(name); }
  ~ScopedPass() { t_.end(); }
  ScopedPass(const ScopedPass&) = delete;
  ScopedPass& operator=(const ScopedPass&) = delete;

 private:
  PassTimer& t_;
  PassScope scope_;
};

}  // namespace firn::gl

#pragma once
/// Progress of a running benchmark on stderr: a line at most every kBenchProgressSeconds of wall time, so that minutes
/// of work on a large scene are not silent (robustness sweep 2026-11-27: `firn bench` printed nothing until its
/// table). A line costs microseconds, nothing next to the timed work between two lines; stdout keeps the tables alone.
#include <chrono>
#include <cstdio>

namespace firn::app {

inline constexpr double kBenchProgressSeconds = 5.0;

/// Call update() after each unit of work; it prints "bench: <done> of <total> <unit>" when the last line (or the
/// start) is `interval` seconds old. `unit` must outlive the object (a string literal).
class BenchProgress {
 public:
  BenchProgress(const char* unit, long total, double interval = kBenchProgressSeconds)
      : unit_(unit), total_(total), interval_(interval), last_(std::chrono::steady_clock::now()) {}

  void update(long done) {
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last_).count() < interval_) return;
    last_ = now;
    std::fprintf(stderr, "bench: %ld of %ld %s\n", done, total_, unit_);
  }

 private:
  const char* unit_;
  long total_;
  double interval_;  // [s]
  std::chrono::steady_clock::time_point last_;
};

}  // namespace firn::app

#include "app/pass_table.h"

#include <chrono>
#include <cstdio>

namespace firn::app {

void print_gpu_header(const gl::ContextInfo& info) {
  std::printf("GPU:        %s\nDriver:     %s\n", info.renderer.c_str(), info.version.c_str());
}

double time_passes(gl::PassTimer& timer, int count, const std::function<void()>& step) {
  const bool was_enabled = timer.enabled();
  glFinish();
  timer.set_enabled(true);
  timer.clear();
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < count; ++k) step();
  glFinish();
  const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  timer.resolve();
  timer.set_enabled(was_enabled);
  return wall_ms;
}

double print_pass_table(const std::vector<gl::PassTime>& passes, int count, const char* unit, double wall_ms,
                        const char* wall_label) {
  double sum_ms = 0;
  int cpu_passes = 0;
  for (const auto& p : passes) sum_ms += p.total_ms, cpu_passes += p.cpu;
  const bool all_cpu = cpu_passes == static_cast<int>(passes.size());
  const char* total = cpu_passes == 0 ? "GPU total" : all_cpu ? "CPU total" : "GPU and CPU total";
  std::printf("\n| pass | ms/%s | share |\n|---|---:|---:|\n", unit);
  for (const auto& p : passes)
    std::printf("| %s | %.3f | %.1f%% |\n", p.name.c_str(), p.total_ms / count, sum_ms > 0 ? 100.0 * p.total_ms / sum_ms : 0.0);
  std::printf("| **%s** | %.3f | 100%% |\n| %s | %.3f | |\n", total, sum_ms / count, wall_label, wall_ms / count);
  return sum_ms;
}

}  // namespace firn::app

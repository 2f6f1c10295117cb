#include "mpm/gpu_upload.h"

#include "common/bindings.h"

namespace firn::mpm {
std::vector<GpuMaterial> to_gpu(const std::vector<Material>& materials) {
  std::vector<GpuMaterial> out;
  for (const Material& m : materials) {
    GpuMaterial g{};
    g.lame = glm::vec4(m.mu0(), m.lambda0(), m.hardening, m.density);
    g.plasticity = glm::vec4(m.critical_compression, m.critical_stretch, 0, 0);
    out.push_back(g);
  }
  return out;
}

GpuParams make_params(const MpmSettings& s, const FixedPointScales& scales, const glm::ivec3& dims,
                      const glm::ivec3& window,
                      const glm::dvec3& gravity, uint32_t particles, uint32_t colliders, uint32_t rigid_bodies) {
  GpuParams p{};
  p.grid_min_h = glm::vec4(glm::vec3(s.grid.min), static_cast<float>(s.grid.spacing));
  p.grid_dims = glm::ivec4(dims, 0);
  p.gravity_dt = glm::vec4(glm::vec3(gravity), 0.0f);
  p.scales = glm::vec4(scales.mass_scale, scales.momentum_scale, s.flip, 0.0f);
  p.counts = glm::uvec4(particles, colliders, rigid_bodies, s.thesis_gradient ? MPM_FLAG_THESIS_GRADIENT : 0u);
  p.window_dims = glm::ivec4(window, 0);
  return p;
}

std::vector<glm::dvec2> to_gpu_wave_inputs(const std::vector<Material>& materials) {
  std::vector<glm::dvec2> out;
  for (const Material& m : materials) out.emplace_back(m.lambda0() + 2.0 * m.mu0(), m.density);
  if (out.empty()) out.emplace_back(0.0, 1.0);
  return out;
}

}  // namespace firn::mpm

#include "sph/gpu_upload.h"

#include <bit>
#include <cmath>
#include <numbers>

#include "common/bindings.h"
#include "sph/seeding.h"

namespace firn::sph {
namespace {

uint32_t action_code(RegionAction a) {
  switch (a) {
    case RegionAction::kBoundary: return SPH_REGION_BOUNDARY;
    case RegionAction::kTeleport: return SPH_REGION_TELEPORT;
    case RegionAction::kShift: return SPH_REGION_SHIFT;
    case RegionAction::kSetSpeed: return SPH_REGION_SET_SPEED;
  }
  return SPH_REGION_SET_SPEED;
}

}  // namespace

double hash_cell_size(const SphSettings& s) { return s.h() / SPH_CELL_REACH * (1.0 + 1.0 / 64.0); }

std::vector<GpuRegion> to_gpu(const std::vector<Region>& regions, double h) {
  std::vector<GpuRegion> out;
  for (const Region& r : regions) {
    GpuRegion g{};
    const double thickness = r.thickness > 0 ? r.thickness : 2.0 * h;
    g.min_action = glm::vec4(glm::vec3(r.min), static_cast<float>(action_code(r.action)));
    g.max_thickness = glm::vec4(glm::vec3(r.max), static_cast<float>(thickness));
    g.vector = glm::vec4(glm::vec3(r.action == RegionAction::kBoundary ? r.normal : r.vector), 0.0f);
    g.point = glm::vec4(glm::vec3(r.point), 0.0f);
    out.push_back(g);
  }
  return out;
}

double eos_stiffness(const SphSettings& s) {
  const double c2 = s.sound_speed * s.sound_speed;
  return s.eos == EquationOfState::kTait ? s.rest_density * c2 / 7.0 : c2;
}

GpuParams make_params(const SphSettings& s, const glm::dvec3& gravity, uint32_t particles, uint32_t table_size,
                      uint32_t colliders, uint32_t regions) {
  const double h = s.h(), pi = std::numbers::pi;
  GpuParams p{};
  p.origin_cell = glm::vec4(glm::vec3(0.5 * (s.domain_min + s.domain_max)), static_cast<float>(hash_cell_size(s)));
  p.kernel = glm::vec4(h, h * h, s.rest_density, s.spacing);
  p.coef = glm::vec4(315.0 / (64.0 * pi * std::pow(h, 9)), -945.0 / (32.0 * pi * std::pow(h, 9)),
                     -45.0 / (pi * std::pow(h, 6)) * pressure_gradient_correction(s), 45.0 / (pi * std::pow(h, 6)));
  p.material = glm::vec4(eos_stiffness(s), s.viscosity, s.surface_tension, s.surface_threshold);
  p.gravity_dt = glm::vec4(glm::vec3(gravity), 0.0f);
  p.domain_min = glm::vec4(glm::vec3(s.domain_min), static_cast<float>(s.sound_speed));
  p.domain_max = glm::vec4(glm::vec3(s.domain_max), 0.0f);  // w: the erosion, set by the solver (computed once)
  uint32_t flags = SPH_FLAG_WALLS;
  for (uint32_t a = 0; a < 3; ++a)
    if (s.no_slip[a]) flags |= SPH_FLAG_NO_SLIP_X << a;
  if (s.eos == EquationOfState::kLinear) flags |= SPH_FLAG_LINEAR_EOS;
  if (s.pressure_solver == PressureSolver::kDfsph) flags |= SPH_FLAG_DFSPH;
  p.counts = glm::uvec4(particles, table_size, colliders, regions);
  const uint32_t min_neighbours =
      s.pressure_solver == PressureSolver::kDfsph ? dfsph_divergence_min_neighbours(s) : 0;
  p.step = glm::uvec4(min_neighbours, flags, std::bit_cast<uint32_t>(static_cast<float>(s.max_compression)), 0);
  const double hs = 0.5 * h;  // Monaghan's smoothing length: the kernels' support h is 2 h_s
  p.damping = glm::vec4(s.artificial_viscosity * s.sound_speed * hs, 0.01 * hs * hs,
                        s.artificial_viscosity * s.rest_density * s.sound_speed * hs / 10.0, 0);
  return p;
}

}  // namespace firn::sph

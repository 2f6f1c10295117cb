#include "sph/settle.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.h"
#include "sph/solver.h"

namespace firn::sph {

std::vector<GpuParticle> settle(const SphSettings& settings, std::vector<Collider> colliders,
                                std::vector<RigidCollider> bodies, const glm::dvec3& gravity,
                                std::vector<GpuParticle> particles) {
  if (!(settings.settle_time > 0) || particles.empty()) return particles;
  SphSettings still = settings;
  std::erase_if(still.regions, [](const Region& r) { return r.action != RegionAction::kBoundary; });
  for (Collider& c : colliders) c.velocity = glm::dvec3(0.0);
  for (RigidCollider& b : bodies) b.velocity = b.angular_velocity = glm::dvec3(0.0);

  // The seeded velocities by stable id, given back at the end.
  uint32_t ids = 0;
  for (const GpuParticle& p : particles) ids = std::max(ids, p.id.x + 1);
  std::vector<glm::vec3> seeded(ids, glm::vec3(0.0f));
  for (GpuParticle& p : particles) {  // the water settles from rest
    seeded[p.id.x] = glm::vec3(p.v_rho);
    p.v_rho = glm::vec4(0.0f, 0.0f, 0.0f, p.v_rho.w);
  }

  Solver solver(still, std::move(colliders), gravity, particles);
  if (!bodies.empty()) solver.set_rigid_bodies(std::move(bodies));
  // Whole intervals, the last one shortened to end at settle_time (at least one interval).
  const int intervals = std::max(1, static_cast<int>(std::ceil(settings.settle_time / kSettleInterval - 1e-9)));
  try {
    for (int k = 0; k < intervals; ++k) {
      const double end = std::min(settings.settle_time, (k + 1) * kSettleInterval);
      solver.advance(end - solver.time());
      particles = solver.download_particles();
      for (GpuParticle& p : particles) p.v_rho = glm::vec4(0.0f, 0.0f, 0.0f, p.v_rho.w);
      if (k + 1 < intervals) solver.upload_particles(particles);
    }
  } catch (const NumericalError& e) {
    throw NumericalError("while the water settled before t = 0 (sph.settle_time " +
                         std::to_string(settings.settle_time) + " s, at t = " + std::to_string(solver.time()) +
                         " s of it): " + e.what());
  }
  for (GpuParticle& p : particles) p.v_rho = glm::vec4(seeded[p.id.x], p.v_rho.w);
  return particles;
}

}  // namespace firn::sph

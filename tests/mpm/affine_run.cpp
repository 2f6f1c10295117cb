#include "affine_run.h"

#include <cstdio>

#include "cpu_reference_apic.h"
#include "mpm/seeding.h"

namespace firn::mpmtest {

std::vector<glm::dmat3> to_double(const std::vector<GpuVelocityGradient>& g) {
  std::vector<glm::dmat3> out;
  for (const auto& m : g) out.push_back(ref::from_gpu(m));
  return out;
}

AffineRun start_affine_run(Transfer transfer, int particles, const glm::ivec3& dims, Kernel kernel) {
  std::mt19937_64 rng(test_seed());
  AffineRun r;
  r.scene = random_scene(rng, particles, dims);
  r.scene.settings.transfer = transfer;
  r.scene.settings.kernel = kernel;
  r.solver = std::make_unique<Solver>(r.scene.settings, r.scene.colliders, r.scene.gravity, r.scene.particles);
  r.solver->upload_particles(r.scene.particles);
  for (int i = 0; i < particles; ++i) {
    GpuVelocityGradient c{};
    for (int k = 0; k < 3; ++k)
      c.col[k] = glm::vec4(uniform(rng, -20, 20), uniform(rng, -20, 20), uniform(rng, -20, 20), 0.0f);
    r.affine.push_back(c);
  }
  r.solver->upload_affine(r.affine);
  const double dt = r.solver->step_limits().dt;
  r.solver->set_time_step(dt);
  r.setup = ref::make_setup(r.scene.settings, r.scene.colliders, r.scene.gravity, r.solver->scales(), dt);
  return r;
}

double angular_momentum_drift(Transfer transfer, Kernel kernel) {
  MpmSettings s;
  s.grid.min = glm::dvec3(0.0);
  s.grid.max = glm::dvec3(2.0, 1.5, 1.5);
  s.grid.spacing = 0.05;
  s.transfer = transfer;
  s.kernel = kernel;
  s.materials.push_back(Material{});
  Body a;
  a.center = {0.75, 0.75, 0.68};
  a.radius = 0.2;
  a.velocity = {2, 0, 0};
  a.count = 400;
  a.seed = 3;
  Body b = a;
  b.center = {1.25, 0.75, 0.82};
  b.velocity = {-2, 0, 0};
  b.seed = 4;
  s.bodies = {a, b};
  Solver solver(s, {}, glm::dvec3(0.0), seed_bodies(s));
  const bool affine = has_affine(transfer);
  auto measure = [&] {
    return ref::angular_momentum(ref::from_gpu(solver.download_particles()),
                                 affine ? to_double(solver.download_affine()) : std::vector<glm::dmat3>{},
                                 s.grid.spacing, ref::d_over_h2(stencil_kernel(s)));
  };
  const glm::dvec3 l0 = measure();
  const int substeps = solver.advance(0.06);
  const glm::dvec3 l1 = measure();
  const double drift = glm::length(l1 - l0) / glm::length(l0);
  const char* name = transfer == Transfer::kApic ? "APIC" : transfer == Transfer::kMls ? "MLS" : "PIC/FLIP 0.95";
  std::printf("  %s, %s kernel: |L0| = %.6g kg m^2/s, %d substeps, relative change %.3g\n", name,
              stencil_kernel(s) == Kernel::kCubic ? "cubic" : "quadratic", glm::length(l0), substeps,
              drift);
  return drift;
}

}  // namespace firn::mpmtest

#pragma once
/// What the APIC and MLS-MPM tests share (test_apic.cpp, test_mls.cpp): a random scene with random affine
/// velocities uploaded, and the off-centre collision of two snowballs whose angular momentum the affine transfers
/// must keep.
#include <memory>
#include <vector>

#include "cpu_reference.h"
#include "mpm/solver.h"
#include "mpm_test_util.h"

namespace firn::mpmtest {

/// Downloaded affine velocities or velocity gradients in double.
std::vector<glm::dmat3> to_double(const std::vector<GpuVelocityGradient>& g);

/// A solver on a random scene of `particles` particles on a grid of `dims` nodes with `transfer` and `kernel`,
/// random affine velocities (|C| < 20 1/s per element) uploaded and the CFL time step set; `setup` is the CPU
/// reference's view.
struct AffineRun {
  Scene scene;
  std::unique_ptr<Solver> solver;
  ref::Setup setup;
  std::vector<GpuVelocityGradient> affine;
};
AffineRun start_affine_run(Transfer transfer, int particles, const glm::ivec3& dims, Kernel kernel = Kernel::kCubic);

/// Relative change of the angular momentum about the origin over 0.06 s of two 0.2 m snowballs (Stomakhin 2013
/// Table 2 snow, 400 particles each) meeting off-centre at 4 m/s in zero gravity, far from the walls, with
/// `transfer` and `kernel`; the affine spin counted with the kernel's D_p / h^2 (ref::angular_momentum). Prints it.
double angular_momentum_drift(Transfer transfer, Kernel kernel);

}  // namespace firn::mpmtest

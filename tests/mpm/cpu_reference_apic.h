#pragma once
/// CPU double-precision reference of the APIC transfers (Jiang et al. 2015, "The Affine Particle-In-Cell Method",
/// Eqs. 8-12) with the B-spline of Setup::kernel, for which D_p = sum_i w_ip (x_i - x_p)(x_i - x_p)^T = h^2/3 I
/// (cubic) or h^2/4 I (quadratic), so C_p = B_p D_p^-1 = 3/h^2 B_p or 4/h^2 B_p (Jiang et al. 2015 Sec. 5.3). Written
/// from the paper; bounds on the GPU's float deviation as in cpu_reference.h.
#include <vector>

#include "cpu_reference.h"

namespace firn::mpm::ref {

/// D_p / h^2 of a kernel: 1/3 for the cubic B-spline, 1/4 for the quadratic one.
inline double d_over_h2(Kernel k) { return k == Kernel::kCubic ? 1.0 / 3.0 : 1.0 / 4.0; }

/// The affine part of APIC's particle-to-grid momentum, sum_p w_ip m_p C_p (x_i - x_p) [kg m/s] per node, and a
/// per-node bound (per component) on the GPU's float error of it (to add to GridSums::momentum_tol).
struct AffineMomentum {
  std::vector<dvec3> momentum;
  std::vector<double> tol;
};
AffineMomentum apic_affine_momentum(const Setup& s, const std::vector<Particle>& particles,
                                    const std::vector<dmat3>& affine);

/// APIC grid-to-particle's affine velocity C_p = D_p^-1 sum_i w_ip v_i^{n+1} (x_i - x_p)^T [1/s] (Eq. 10), from the
/// GPU's node velocities, with a per-element bound. (v_p is the PIC velocity: the reference grid_to_particle with
/// flip 0.)
struct AffineVelocity {
  std::vector<dmat3> c;
  std::vector<double> tol;
};
AffineVelocity apic_affine_velocity(const Setup& s, const std::vector<Particle>& particles,
                                    const std::vector<GpuGridVelocity>& grid);

/// Angular momentum about the origin of particles moved by APIC [kg m^2/s]: sum_p m_p (x_p x v_p) plus the affine
/// spin m_p (h^2/3) (C_32 - C_23, C_13 - C_31, C_21 - C_12) (Jiang et al. 2015 Sec. 5.3: the grid's angular
/// momentum after particle-to-grid, by sum_i w_ip (x_i - x_p) = 0 and D_p = h^2/3 I). Without `affine` (PIC/FLIP),
/// the first sum alone. `d_over_h2`: D_p / h^2, 1/3 for the cubic B-spline, 1/4 for MLS-MPM's quadratic.
dvec3 angular_momentum(const std::vector<Particle>& particles, const std::vector<dmat3>& affine, double h,
                       double d_over_h2 = 1.0 / 3.0);

}  // namespace firn::mpm::ref

#pragma once
/// CPU double-precision reference of the MLS-MPM transfers (Hu et al. 2018, "A Moving Least Squares Material Point
/// Method with Displacement Discontinuity and Two-Way Rigid Body Coupling", Sec. 5): APIC's affine transfers with the
/// quadratic B-spline N(x) = 3/4 - x^2 (|x| < 1/2), (3/2 - |x|)^2 / 2 (|x| < 3/2), for which D_p = h^2/4 I, and the
/// elastic force in the affine momentum: grad w_ip is replaced by w_ip D_p^-1 (x_i - x_p). Written from the paper;
/// float bounds derived as in cpu_reference.h.
#include <vector>

#include "cpu_reference.h"

namespace firn::mpm::ref {

/// MLS particle-to-grid: m_i = sum_p w_ip m_p and p_i = sum_p w_ip (m_p v_p + (m_p C_p - dt (4/h^2) V_p sigma_p)
/// (x_i - x_p)) [kg, kg m/s], with per-node bounds (per component) of |GPU - ref|.
struct MlsGrid {
  std::vector<double> mass;
  std::vector<dvec3> momentum;
  std::vector<double> mass_tol, momentum_tol;
};
MlsGrid mls_particle_to_grid(const Setup& s, const std::vector<Particle>& particles, const std::vector<dmat3>& affine);

/// MLS grid-to-particle from the GPU's node velocities: v_p = sum_i w_ip v_i and C_p = 4/h^2 sum_i w_ip v_i
/// (x_i - x_p)^T (also the velocity gradient of the F update), with bounds.
struct MlsTransfer {
  std::vector<dvec3> v;
  std::vector<dmat3> c;
  std::vector<double> v_tol, c_tol;
};
MlsTransfer mls_grid_to_particle(const Setup& s, const std::vector<Particle>& particles,
                                 const std::vector<GpuGridVelocity>& grid);

}  // namespace firn::mpm::ref

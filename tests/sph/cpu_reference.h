#pragma once
/// A double-precision CPU reference of the SPH passes, written from Mueller, Charypar & Gross 2003 and the wall
/// model in shaders/sph/boundary.glsl, by brute force over all pairs. The wall integrals are evaluated by nested
/// Simpson quadrature of the kernels (not the shaders' closed forms), so the closed forms are checked too.
#include <vector>

#include <glm/glm.hpp>

#include "core/collider.h"
#include "sph/layout.h"
#include "sph/settings.h"

namespace firn::sphref {

/// Everything the passes read besides the particles.
struct Setup {
  sph::SphSettings settings;
  std::vector<Collider> colliders;
  glm::dvec3 gravity{0.0};
  double dt = 0;
  uint32_t step = 0;
};

/// Per-particle result with an error bound for comparing a float GPU value.
struct Density {
  double rho = 0, p = 0;
  double rho_bound = 0;  ///< bound on |rho_gpu - rho| [kg/m^3]
};
struct Acceleration {
  glm::dvec3 a{0.0};
  double bound = 0;              ///< bound on each component of |a_gpu - a| [m/s^2]
  bool near_threshold = false;   ///< |grad c| within 1e-3 of the surface threshold: the branch may differ
  bool tension = false;          ///< surface tension acts (|grad c| above the threshold)
};

/// Kernel mass beyond a plane at distance d [m] (d >= 0): integral of W over the half-space, by quadrature.
double wall_volume_poly6(double d, double h);
/// Integral of W_spiky over the plane at distance d [m] from the particle [1/m], by quadrature.
double wall_area_spiky(double d, double h);

/// Density pass: rho_i = sum_j m_j W_poly6 + rho0 sum_walls V(d); p from the equation of state (clamped at 0).
std::vector<Density> density(const Setup& s, const std::vector<sph::GpuParticle>& particles);
/// Force pass on particles whose rho and p are given (GpuParticle::v_rho.w, a_p.w).
std::vector<Acceleration> forces(const Setup& s, const std::vector<sph::GpuParticle>& particles);
/// Integration pass: symplectic Euler, regions, walls; returns the updated particles.
std::vector<sph::GpuParticle> integrate(const Setup& s, const std::vector<sph::GpuParticle>& particles);

}  // namespace firn::sphref

#pragma once
/// Double-precision CPU reference of the SPH solid boundary model (shaders/sph/boundary.glsl; docs/water.md
/// "Solids") under WCSPH's poly6: the integrals of the kernels over the continuum solids (colliders, boundary slabs)
/// around a particle, eroded by sph::continuum_erosion(), less the skins below the nearest solids' tangent planes,
/// continued beyond the domain face a ray leaves by as their mirror image, plus the particle's own mirror image
/// across each near solid; split per solid (a point belongs to the lowest-index solid containing it). Written from
/// the definitions: the half-space integrals by nested Simpson quadrature of the kernels (not the shader's closed
/// forms), the solids' ray intervals in double, the radial integrals from the kernels' polynomials in h.
#include <functional>
#include <vector>

#include <glm/glm.hpp>

#include "core/collider.h"
#include "sph/settings.h"

namespace firn::sphref {

/// Composite Simpson rule over [a, b] with 64 intervals (exact to ~1e-8 for the degree <= 9 kernel polynomials).
double simpson(const std::function<double(double)>& f, double a, double b);

/// W_poly6(r, h) = 315 / (64 pi h^9) (h^2 - r^2)^3 for r < h [1/m^3] (Mueller et al. 2003 Eq. 20).
double w_poly6(double r, double h);

/// One solid's share of the boundary integrals at a particle (SI units).
struct SolidShare {
  size_t solid = 0;          ///< index: colliders, then the 6 domain faces (x-, x+, y-, ...), then the regions
  glm::dvec3 normal{0.0};    ///< unit normal of the solid's tangent plane at the particle (out of the solid)
  double d = 0;              ///< signed distance of the particle from the solid itself (not eroded) [m]
  double v = 0;              ///< int W_poly6 [1]
  glm::dvec3 g{0.0};         ///< int grad_i W_poly6 = grad V [1/m]
  glm::dvec3 push{0.0};      ///< what the pressure pushes with [1/m]: twice the continuum's part of g (the images of
                             ///< other particles in the symmetric pair form) plus the own image's part
  double l = 0;              ///< int lap W_visc [1/m^2]
  double v_continuum = 0;    ///< the continuum's part of v (without the own image) [1]
};

/// Angular rule of the integrals.
enum class Rule {
  kShader,  ///< the shader's: 256 Fibonacci directions, control variates, closed forms where exact
  kFine,    ///< Gauss-Legendre 64 in cos(theta) x 128 in phi, no control variates (the accuracy reference)
};

/// One direction of an angular rule: unit vector and weight [sr] (the weights sum to 4 pi).
struct Direction {
  glm::dvec3 e;
  double weight;
};

/// The directions of `rule` (kFine: Gauss-Legendre nodes in cos(theta) by Newton's method on P_64, uniform in phi).
std::vector<Direction> directions(Rule rule);

/// The shares of every solid within h of x for a particle of mass `mass` [kg] (its own images).
std::vector<SolidShare> boundary_shares(const sph::SphSettings& s, const std::vector<Collider>& colliders,
                                        const glm::dvec3& x, double mass, Rule rule);

/// Whether the shader rule evaluates x by closed forms only (every solid within h a half-space, no two
/// non-parallel ones meeting inside the kernel); exact up to rounding there.
bool closed_forms_only(const sph::SphSettings& s, const std::vector<Collider>& colliders, const glm::dvec3& x);

/// Velocity [m/s] of solid k and whether it is no-slip for the viscous term.
glm::dvec3 solid_velocity(const std::vector<Collider>& colliders, size_t k);
bool solid_no_slip(const sph::SphSettings& s, const std::vector<Collider>& colliders, size_t k);

}  // namespace firn::sphref

#pragma once
/// A solid the water sees as a volume fraction on a regular grid: the snow of a snow-water coupling
/// (app/snow_water_exchange.h, docs/coupling.md "Snow and water"). Whoever owns the solid writes the fraction
/// phi_n [1] and the solid's velocity and inverse mass of every node (sph::Solver::solid_field_fraction,
/// solid_field_motion) and takes the water's impulse on every node (sph::Solver::solid_field_reaction); the water
/// adds rho0 phi(x_i) to its density and the matching pressure force, phi interpolated with the quadratic B-spline of
/// the grid (shaders/sph/solid_field.glsl). DFSPH's solves also let the solid move as they push it (strong coupling).
#include <glm/glm.hpp>

namespace firn::sph {

/// Geometry and fixed-point units of a solid field.
struct SolidFieldGrid {
  glm::dvec3 origin{0.0};       ///< position of node (0, 0, 0) [m]
  double spacing = 0.0;         ///< node spacing [m], > 0
  glm::ivec3 dims{0};           ///< node counts per axis, each >= 1
  /// Units per N s of the reaction sums (> 0): each node's impulse is an int64 of 1 / reaction_scale N s in two
  /// uint words (low first) per axis, 6 words per node; a sum leaving the int64 range is a numerical failure.
  double reaction_scale = 0.0;
};

}  // namespace firn::sph

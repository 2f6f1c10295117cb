#pragma once
/// What one rendered frame shows (plain data): particle sets, fluid surfaces, colliders, the ground, the grid bounds
/// and the look.
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "core/collider.h"
#include "render/fluid_style.h"
#include "render/particle_renderer.h"
#include "render/polyhedron_renderer.h"
#include "render/view_params.h"

namespace firn::render {

/// The ground: a large horizontal square at y = height, seen from above, with an optional checker pattern so that
/// motion over it is visible.
struct GroundPlane {
  double height = 0.0;                      ///< y of the ground [m]
  double half_extent = 25.0;                ///< half side of the square, centred below the camera target [m], > 0
  glm::vec3 colour{0.50f, 0.48f, 0.44f};    ///< light cells, linear RGB
  double checker_size = 0.25;               ///< side of a checker cell [m]; 0 = plain
  float checker_contrast = 0.18f;           ///< dark cells are colour * (1 - contrast), in [0, 1]
};

/// An axis-aligned box [min, max] [m].
struct Bounds {
  glm::dvec3 min{0.0};  ///< [m]
  glm::dvec3 max{1.0};  ///< [m]
};

/// Colours of the scene geometry (linear RGB in [0, 1]).
struct SceneColours {
  glm::vec3 plane{0.48f, 0.55f, 0.68f};   ///< plane colliders (slate blue)
  glm::vec3 sphere{0.90f, 0.52f, 0.22f};  ///< sphere colliders (orange)
  glm::vec3 box{0.30f, 0.62f, 0.55f};     ///< box colliders (teal)
  glm::vec3 bounds{1.00f, 0.85f, 0.30f};  ///< grid bounds edges (yellow, unlit lines)
};

/// Everything one frame draws. Colliders are drawn where `point` says (the caller moves them); a plane collider
/// coincident with the ground (normal +y, same height within 1e-4 m) is left out because the ground already shows it.
struct FrameContent {
  std::vector<ParticleSet> particles;          ///< drawn in order, depth-tested against each other and the scene
  std::vector<firn::Collider> colliders;       ///< planes as one-sided squares, spheres and boxes as solids
  std::optional<GroundPlane> ground = GroundPlane{};
  std::optional<Bounds> grid_bounds;           ///< simulation domain, drawn as 12 edges
  double plane_half_extent = 0.0;  ///< half side of plane collider squares [m]; 0: the grid bounds' diagonal, else 5 m
  glm::vec3 background{0.16f, 0.18f, 0.22f};   ///< clear colour, linear RGB
  Lighting lighting;
  SceneColours colours;
  std::vector<PolyhedronSet> polyhedra;        ///< flat-shaded instanced polyhedra (DEM grains, wall meshes)
  /// Particle sets drawn as water surfaces (screen-space fluid rendering), after everything opaque above and in
  /// order, each refracting what was drawn before it and hidden behind nearer opaque geometry.
  std::vector<FluidSurfaceSet> fluid_surfaces;
};

}  // namespace firn::render

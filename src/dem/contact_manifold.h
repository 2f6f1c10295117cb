#pragma once
/// Contact manifolds of up to four points for the complementarity model (complementarity.h): which points of a
/// touching or nearly touching pair carry impulses, with their gaps along one shared normal.
///
/// Polyhedron pairs: the warm-started closest-feature walk (closest_feature.h) rejects pairs farther apart than the
/// speculative margin; otherwise the separating-axis scan (penetration.h) gives the normal (A to B) and whether a
/// face of A, a face of B or an edge pair realises it. A face axis gives a face-face / edge-face / vertex-face
/// manifold by reference-face clipping (as in Box2D, Bullet and Jolt): the reference face is that face, the incident
/// face is the face of the other body around its support vertex most opposed to the reference normal, the incident
/// polygon is clipped against the side planes of the reference face (Sutherland-Hodgman) and every clipped vertex
/// within the margin is a point, its gap being its signed height over the reference plane. An edge pair gives one
/// point, the midpoint of the closest points of the two edges. More than four points are reduced to four that keep
/// the deepest point and span the largest area (so a resting face keeps its support polygon).
#include <array>

#include <glm/glm.hpp>

#include "dem/closest_feature.h"
#include "dem/polyhedron.h"

namespace firn::dem {

/// One manifold point.
struct ManifoldPoint {
  glm::dvec3 point{0.0};  ///< Contact point, world [m] (midway between the two surfaces along the normal).
  double gap = 0.0;       ///< Signed distance of the surfaces along the normal [m]; < 0 means penetration.
};

/// Up to four contact points sharing one normal.
struct Manifold {
  glm::dvec3 normal{0.0, 1.0, 0.0};   ///< Unit normal from A to B [-].
  int count = 0;                      ///< Points in use, 0..4.
  std::array<ManifoldPoint, 4> points;  ///< The points.
  int walk_iterations = 0;            ///< Closest-feature walk iterations spent (counters).
};

/// How two bodies move over the next step, for speculative contacts: the velocity of each body's origin (its
/// placement's position) [m/s] and its angular velocity [rad/s], world, and the step [s]. The default (at rest)
/// takes the points by their present gaps.
struct PairMotion {
  glm::dvec3 velocity_a{0.0}, angular_velocity_a{0.0};
  glm::dvec3 velocity_b{0.0}, angular_velocity_b{0.0};
  double dt = 0.0;
};

/// Manifold of convex polyhedra A and B (placed by pa, pb): the points whose gap after the step at their present
/// relative velocity along the normal (`motion`; the gap itself when they separate) is <= margin [m] (>= 0), each
/// with its present gap, reduced to four by that predicted gap; count 0 when none. Pairs farther apart than margin +
/// dt (|v_b - v_a| + |w_a| R_a + |w_b| R_b) (R: bounding radii) cannot have one and are rejected by the walk alone.
/// Updates `cache` (closest features and separating-axis warm start) for the next step.
Manifold polyhedra_manifold(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                            FeaturePair& cache, double margin, const PairMotion& motion = {});

/// How body A moves relative to a plane wall over the next step, for speculative contacts: the velocity of A's
/// centre [m/s] and A's angular velocity [rad/s], both world and relative to the wall, and the step [s]. The
/// default (at rest) takes the vertices by their present gaps.
struct PlaneMotion {
  glm::dvec3 velocity{0.0};
  glm::dvec3 angular_velocity{0.0};
  double dt = 0.0;
};

/// Manifold of polyhedron A (placed by x) against the half-space behind the plane through `point` [m] with unit
/// normal `plane_normal` pointing into the free side: A's vertices whose gap after the step at their present
/// velocities (`motion`; the gap itself when they move away) is within `margin` [m], less those lying above a deeper
/// one within 45 degrees of the normal (they cannot come down first), reduced to four by that predicted gap (so the
/// vertex coming down first is kept), each with its present gap; the normal from A to the wall is -plane_normal.
Manifold plane_manifold(const Polyhedron& a, const Placement& x, const glm::dvec3& point,
                        const glm::dvec3& plane_normal, double margin, const PlaneMotion& motion = {});

/// Keeps at most four of the `count` points (in place): the deepest, the one farthest from it in the plane normal to
/// `n` [-], the one making the largest triangle with those two, and the one adding the most area on the other side.
int reduce_to_four(ManifoldPoint* points, int count, const glm::dvec3& n);

}  // namespace firn::dem

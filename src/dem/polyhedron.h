#pragma once
/// Convex polyhedral grains and their feature graph (Schinner 1995 §3.1, §4.2.2, App. C; notes §3.1, §6.2-6.6).
///
/// A Polyhedron is plain data in its body frame: vertices, winged edges (tail, head, left and right face), faces as
/// counter-clockwise loops seen from outside, outward face planes, and the external Voronoi regions of every feature
/// as lists of planes, each tagged with the neighbouring feature to move to when the plane is violated (the
/// "logical structure of the Voronoi regions", category 1 of §4.2.3). Rigid motions leave all of it unchanged, so the
/// closest-feature walk maps points into the owner's body frame instead of transforming planes.
///
/// Conventions (used by every dem geometry routine):
/// - Edge e runs tail -> head; its left face traverses tail -> head in its ccw loop, its right face head -> tail
///   (Lin 1993 / notes Fig. 4.5 winged edge).
/// - Plane: signed distance dot(normal, x) + offset [m], normal of unit length (notes §6.4: use n.x + d = 0).
/// - VoronoiPlane: x is on the region's side iff dot(normal, x) + offset >= 0.
/// - Faces may be polygons (coplanar triangles merged by convex_hull), not only triangles as in the thesis; the
///   thesis allows coplanar triangles (§3.1), and merging them removes Lin-Canny's cycling between them.
#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "dem/hull.h"

namespace firn::dem {

/// Kind of a boundary feature (notes §6.2: "Ecken, Kanten, Flächen").
enum class FeatureType : std::uint8_t { Vertex = 0, Edge = 1, Face = 2 };

/// A feature of one polyhedron: its type and its index into vertices, edges or faces.
struct FeatureRef {
  FeatureType type = FeatureType::Vertex;  ///< Vertex, edge or face.
  int index = -1;                          ///< Index into the matching array; -1 means "none".
  friend bool operator==(const FeatureRef&, const FeatureRef&) = default;
};

/// Oriented plane: signed distance of x is dot(normal, x) + offset [m]; normal has unit length.
struct Plane {
  glm::dvec3 normal{0.0, 0.0, 1.0};  ///< Unit normal (outward for face planes) [-].
  double offset = 0.0;               ///< Offset [m].
};

/// Winged edge (notes Fig. 4.5): runs tail -> head; the left face's ccw loop traverses it tail -> head.
struct Edge {
  int tail = -1;        ///< Start vertex index.
  int head = -1;        ///< End vertex index.
  int left_face = -1;   ///< Face whose ccw loop (seen from outside) runs tail -> head.
  int right_face = -1;  ///< Face whose ccw loop runs head -> tail.
};

/// One bounding plane of a feature's external Voronoi region (notes §6.3, eqs. 4.17-4.19).
/// A point x lies on the region's side iff dot(normal, x) + offset >= 0; if violated, `neighbour` is the adjacent
/// feature that is closer to x (the transition of §4.2.2.1-3).
struct VoronoiPlane {
  glm::dvec3 normal{0.0};  ///< Unit normal pointing into the region [-].
  double offset = 0.0;     ///< Offset [m].
  FeatureRef neighbour;    ///< Feature to move to when this plane is violated.
};

/// Convex polyhedron with its feature graph, in the body frame. Build it with make_polyhedron() or a factory; the
/// arrays are mutually consistent only as built.
struct Polyhedron {
  std::vector<glm::dvec3> vertices;        ///< Vertex positions, body frame [m].
  std::vector<Edge> edges;                 ///< Winged edges.
  std::vector<int> face_start;             ///< Face f owns loop entries [face_start[f], face_start[f+1]).
  std::vector<int> face_vertices;          ///< Concatenated ccw vertex loops (seen from outside).
  std::vector<int> face_edges;             ///< face_edges[k] joins face_vertices[k] to the next loop vertex.
  std::vector<Plane> face_planes;          ///< Outward unit normal and offset of each face.
  std::vector<int> vertex_edge_start;      ///< Vertex v owns entries [vertex_edge_start[v], vertex_edge_start[v+1]).
  std::vector<int> vertex_edges;           ///< Concatenated incident edges of each vertex.
  std::vector<glm::dvec3> edge_directions; ///< Unit vector tail -> head of each edge [-].
  std::vector<VoronoiPlane> vertex_regions;  ///< One plane per vertex_edges entry (eq. 4.18): -> that edge.
  std::vector<VoronoiPlane> edge_regions;    ///< Four per edge: tail, head, left face, right face (eq. 4.19).
  std::vector<VoronoiPlane> face_regions;    ///< One per face_edges entry (side planes of the face prism).
  double bounding_radius = 0.0;            ///< max |vertex| about the body origin [m].

  int vertex_count() const { return static_cast<int>(vertices.size()); }  ///< Number of vertices.
  int edge_count() const { return static_cast<int>(edges.size()); }       ///< Number of edges.
  int face_count() const { return static_cast<int>(face_planes.size()); } ///< Number of faces.
};

/// Rigid placement body -> world: x_world = rotation * x_body + position. `rotation` must be a proper orthonormal
/// matrix (glm column-major). Build it from a unit quaternion with placement_from_quaternion().
struct Placement {
  glm::dmat3 rotation{1.0};  ///< Body -> world rotation R [-].
  glm::dvec3 position{0.0};  ///< World position of the body origin [m].
};

/// Placement from a unit quaternion q = (w, x, y, z) body -> world (notes §2.7, eq. A.19) and a position [m].
Placement placement_from_quaternion(const glm::dquat& orientation, const glm::dvec3& position);

/// World coordinates [m] of the body point `p_body` [m].
inline glm::dvec3 to_world(const Placement& placement, const glm::dvec3& p_body) {
  return placement.rotation * p_body + placement.position;
}

/// Builds the feature graph and Voronoi regions of a closed convex polygon mesh (e.g. the output of convex_hull()).
/// Throws std::runtime_error("make_polyhedron: ...") if the mesh is not a closed 2-manifold with consistent ccw
/// orientation, violates Euler's V - E + F = 2, has a face that is not planar, or is not convex (relative tolerance
/// 1e-8 of the bounding radius).
Polyhedron make_polyhedron(const HullMesh& mesh);

/// Convex hull of arbitrary points [m] as a Polyhedron (convex_hull() then make_polyhedron()); coplanar faces are
/// merged. Throws std::runtime_error on degenerate input (see convex_hull()).
Polyhedron make_polyhedron_from_points(std::span<const glm::dvec3> points, const HullOptions& options = {});

/// The mesh (vertices and ccw face loops) of a polyhedron, e.g. to transform and rebuild it.
HullMesh to_mesh(const Polyhedron& polyhedron);

/// The same polyhedron with every vertex moved by `offset` [m] (e.g. to put the centre of mass at the origin).
Polyhedron translated(const Polyhedron& polyhedron, const glm::dvec3& offset);

/// Axis-aligned box centred at the origin with the given half extents [m] (all > 0): 8 vertices, 12 edges,
/// 6 quadrilateral faces. Throws std::runtime_error if a half extent is not finite and > 0.
Polyhedron make_box(const glm::dvec3& half_extents);

/// Regular tetrahedron with edge length `edge_length` [m] (> 0), centroid at the origin, vertices at
/// (±1, ±1, ±1) with an even number of minus signs, scaled. Throws std::runtime_error if edge_length <= 0.
Polyhedron make_regular_tetrahedron(double edge_length);

/// Parameters of a generated grain: vertices on the ellipsoid x²/a² + y²/b² + z²/c² = 1 (thesis §3.1).
struct EllipsoidGrainSpec {
  double a = 1.0;            ///< Semi-axis along x [m], > 0 (env key SAND_A_LEN).
  double b = 1.0;            ///< Semi-axis along y [m], > 0 (SAND_B_LEN).
  double c = 1.0;            ///< Semi-axis along z [m], > 0 (SAND_C_LEN).
  int vertex_count = 20;     ///< Number of vertices, >= 4.
  std::uint64_t seed = 4711; ///< Seed of the std::mt19937_64 stream (RAND_SEED, default 4711).
  /// Minimum angular spacing of the sampled directions as a fraction of the mean spacing sqrt(4 pi / n); rejects
  /// the near-duplicate points that make sliver triangles (notes §3.1 [I]: "reject near-degenerate slivers") [-].
  double min_spacing = 0.3;
};

/// The vertex_count sample points [m] of a grain: directions uniform on the unit sphere (z = 2u - 1, phi = 2 pi v,
/// from the raw 53-bit mantissas of std::mt19937_64, so the stream is identical on every platform), rejected when
/// closer than min_spacing * sqrt(4 pi / n) to an accepted one, then scaled by (a, b, c) onto the ellipsoid.
/// Throws std::runtime_error if a spec field is out of range or the spacing cannot be met.
std::vector<glm::dvec3> sample_ellipsoid_points(const EllipsoidGrainSpec& spec);

/// Convex grain with all vertices on the ellipsoid (thesis §3.1): hull of sample_ellipsoid_points(). Every sample is
/// an extreme point (the ellipsoid is strictly convex), so the result has exactly vertex_count vertices and, in
/// general position, 3V - 6 edges and 2V - 4 triangular faces. The body origin is the ellipsoid centre, not the
/// centre of mass (see mass_properties.h, centred_on_centre_of_mass()).
Polyhedron make_ellipsoid_polyhedron(const EllipsoidGrainSpec& spec);

}  // namespace firn::dem

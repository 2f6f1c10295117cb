#include "dem/polyhedron.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace firn::dem {
namespace {

using glm::dvec3;

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error("make_polyhedron: " + what); }

/// Newell's normal of a polygon loop (robust for nearly degenerate loops), normalised; offset through the loop mean.
Plane face_plane(const std::vector<dvec3>& p, const std::vector<int>& loop) {
  dvec3 n(0.0), mean(0.0);
  for (std::size_t k = 0; k < loop.size(); ++k) {
    const dvec3 a = p[loop[k]], b = p[loop[(k + 1) % loop.size()]];
    n += dvec3((a.y - b.y) * (a.z + b.z), (a.z - b.z) * (a.x + b.x), (a.x - b.x) * (a.y + b.y));
    mean += a;
  }
  const double len = glm::length(n);
  if (!(len > 0.0)) fail("face with zero area");
  n /= len;
  mean /= static_cast<double>(loop.size());
  return Plane{n, -glm::dot(n, mean)};
}

void check_mesh(const HullMesh& mesh) {
  if (mesh.vertices.size() < 4 || mesh.faces.size() < 4) fail("need >= 4 vertices and >= 4 faces");
  for (const auto& f : mesh.faces) {
    if (f.size() < 3) fail("face with fewer than 3 vertices");
    for (std::size_t k = 0; k < f.size(); ++k) {
      if (f[k] < 0 || f[k] >= static_cast<int>(mesh.vertices.size())) fail("vertex index out of range");
      for (std::size_t j = 0; j < k; ++j) {
        if (f[j] == f[k]) fail("face repeats a vertex");
      }
    }
  }
}

/// Winged edges from the ccw loops; fills face_edges. Each undirected edge must be used once in each direction.
void build_edges(Polyhedron& ph) {
  std::unordered_map<std::uint64_t, int> index;
  const int nf = ph.face_count();
  ph.face_edges.assign(ph.face_vertices.size(), -1);
  for (int f = 0; f < nf; ++f) {
    const int s = ph.face_start[f], n = ph.face_start[f + 1] - s;
    for (int k = 0; k < n; ++k) {
      const int a = ph.face_vertices[s + k], b = ph.face_vertices[s + (k + 1) % n];
      const std::uint64_t key = (static_cast<std::uint64_t>(std::min(a, b)) << 32) | std::max(a, b);
      auto [it, fresh] = index.try_emplace(key, ph.edge_count());
      if (fresh) {
        ph.edges.push_back(Edge{a, b, f, -1});
      } else {
        Edge& e = ph.edges[it->second];
        if (e.tail != b || e.head != a || e.right_face >= 0) fail("not a closed, consistently oriented 2-manifold");
        e.right_face = f;
      }
      ph.face_edges[s + k] = it->second;
    }
  }
  for (const Edge& e : ph.edges) {
    if (e.right_face < 0) fail("open mesh: an edge has only one face");
  }
  if (ph.vertex_count() - ph.edge_count() + nf != 2) fail("Euler characteristic V - E + F != 2");
}

void build_vertex_edges(Polyhedron& ph) {
  const int nv = ph.vertex_count();
  ph.vertex_edge_start.assign(nv + 1, 0);
  for (const Edge& e : ph.edges) {
    ++ph.vertex_edge_start[e.tail + 1];
    ++ph.vertex_edge_start[e.head + 1];
  }
  for (int v = 0; v < nv; ++v) {
    if (ph.vertex_edge_start[v + 1] < 3) fail("vertex with fewer than 3 edges");
    ph.vertex_edge_start[v + 1] += ph.vertex_edge_start[v];
  }
  std::vector<int> fill(ph.vertex_edge_start.begin(), ph.vertex_edge_start.end() - 1);
  ph.vertex_edges.assign(ph.vertex_edge_start[nv], -1);
  for (int e = 0; e < ph.edge_count(); ++e) {
    ph.vertex_edges[fill[ph.edges[e].tail]++] = e;
    ph.vertex_edges[fill[ph.edges[e].head]++] = e;
  }
}

void check_convex(const Polyhedron& ph) {
  const double tol = 1e-8 * ph.bounding_radius;
  dvec3 mean(0.0);
  for (const dvec3& v : ph.vertices) mean += v;
  mean /= static_cast<double>(ph.vertex_count());
  for (int f = 0; f < ph.face_count(); ++f) {
    const Plane& pl = ph.face_planes[f];
    if (!(glm::dot(pl.normal, mean) + pl.offset < 0.0)) fail("face normal does not point outward");
    for (int k = ph.face_start[f]; k < ph.face_start[f + 1]; ++k) {
      if (std::abs(glm::dot(pl.normal, ph.vertices[ph.face_vertices[k]]) + pl.offset) > tol) fail("non-planar face");
    }
    for (const dvec3& v : ph.vertices) {
      if (glm::dot(pl.normal, v) + pl.offset > tol) fail("not convex (a vertex lies above a face plane)");
    }
  }
}

/// Voronoi planes of eqs. 4.17-4.19, each pointing into its region and naming the neighbour across it.
void build_regions(Polyhedron& ph) {
  const auto& p = ph.vertices;
  ph.edge_directions.resize(ph.edges.size());
  ph.edge_regions.resize(4 * ph.edges.size());
  for (int e = 0; e < ph.edge_count(); ++e) {
    const Edge& ed = ph.edges[e];
    const dvec3 u = glm::normalize(p[ed.head] - p[ed.tail]);
    ph.edge_directions[e] = u;
    const dvec3 wl = glm::normalize(glm::cross(ph.face_planes[ed.left_face].normal, u));
    const dvec3 wr = glm::normalize(glm::cross(u, ph.face_planes[ed.right_face].normal));
    const dvec3 t = p[ed.tail], h = p[ed.head];
    ph.edge_regions[4 * e + 0] = {u, -glm::dot(u, t), {FeatureType::Vertex, ed.tail}};
    ph.edge_regions[4 * e + 1] = {-u, glm::dot(u, h), {FeatureType::Vertex, ed.head}};
    ph.edge_regions[4 * e + 2] = {-wl, glm::dot(wl, t), {FeatureType::Face, ed.left_face}};
    ph.edge_regions[4 * e + 3] = {-wr, glm::dot(wr, t), {FeatureType::Face, ed.right_face}};
  }
  ph.vertex_regions.resize(ph.vertex_edges.size());
  for (int v = 0; v < ph.vertex_count(); ++v) {
    for (int k = ph.vertex_edge_start[v]; k < ph.vertex_edge_start[v + 1]; ++k) {
      const int e = ph.vertex_edges[k];
      const dvec3 u = ph.edges[e].tail == v ? ph.edge_directions[e] : -ph.edge_directions[e];
      ph.vertex_regions[k] = {-u, glm::dot(u, p[v]), {FeatureType::Edge, e}};
    }
  }
  ph.face_regions.resize(ph.face_edges.size());
  for (int f = 0; f < ph.face_count(); ++f) {
    const int s = ph.face_start[f], n = ph.face_start[f + 1] - s;
    for (int k = 0; k < n; ++k) {
      const dvec3 a = p[ph.face_vertices[s + k]], b = p[ph.face_vertices[s + (k + 1) % n]];
      const dvec3 w = glm::normalize(glm::cross(ph.face_planes[f].normal, b - a));
      ph.face_regions[s + k] = {w, -glm::dot(w, a), {FeatureType::Edge, ph.face_edges[s + k]}};
    }
  }
}

}  // namespace

Polyhedron make_polyhedron(const HullMesh& mesh) {
  check_mesh(mesh);
  Polyhedron ph;
  ph.vertices = mesh.vertices;
  for (const dvec3& v : ph.vertices) {
    if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) fail("vertex coordinates must be finite");
    ph.bounding_radius = std::max(ph.bounding_radius, glm::length(v));
  }
  ph.face_start.push_back(0);
  for (const auto& f : mesh.faces) {
    ph.face_vertices.insert(ph.face_vertices.end(), f.begin(), f.end());
    ph.face_start.push_back(static_cast<int>(ph.face_vertices.size()));
    ph.face_planes.push_back(face_plane(mesh.vertices, f));
  }
  build_edges(ph);
  build_vertex_edges(ph);
  check_convex(ph);
  build_regions(ph);
  return ph;
}

Polyhedron make_polyhedron_from_points(std::span<const dvec3> points, const HullOptions& options) {
  return make_polyhedron(convex_hull(points, options));
}

HullMesh to_mesh(const Polyhedron& polyhedron) {
  HullMesh mesh;
  mesh.vertices = polyhedron.vertices;
  for (int f = 0; f < polyhedron.face_count(); ++f) {
    mesh.faces.emplace_back(polyhedron.face_vertices.begin() + polyhedron.face_start[f],
                            polyhedron.face_vertices.begin() + polyhedron.face_start[f + 1]);
  }
  return mesh;
}

Polyhedron translated(const Polyhedron& polyhedron, const dvec3& offset) {
  HullMesh mesh = to_mesh(polyhedron);
  for (dvec3& v : mesh.vertices) v += offset;
  return make_polyhedron(mesh);
}

}  // namespace firn::dem

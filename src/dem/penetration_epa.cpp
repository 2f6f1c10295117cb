// Expanding polytope algorithm on A - B and the exact snap of its answer to a separating axis (penetration_epa.h).
#include "dem/penetration_epa.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

namespace firn::dem {
namespace {

using glm::dvec3;

/// Triangle of the polytope, ccw seen from outside. Edge k runs v[k] -> v[k+1]; adj[k] is the face across it and
/// adj_edge[k] the index of the same edge in that face.
struct Face {
  std::array<int, 3> v{};
  std::array<int, 3> adj{};
  std::array<int, 3> adj_edge{};
  dvec3 n{0.0};     // outward unit normal
  double d = 0.0;   // plane offset from the origin along n (the face's distance when the origin is inside)
  bool alive = true;
};

struct Polytope {
  std::vector<SupportPoint> verts;
  std::vector<Face> faces;
  std::vector<std::pair<double, int>> heap;  // (d, face), min-heap with lazy deletion of dead faces
  double min_area2 = 0.0;                    // squared doubled area below which a triangle counts as degenerate

  bool add_face(int a, int b, int c) {
    Face f;
    f.v = {a, b, c};
    const dvec3& pa = verts[a].w;
    f.n = glm::cross(verts[b].w - pa, verts[c].w - pa);
    const double len2 = glm::dot(f.n, f.n);
    if (!(len2 > min_area2)) return false;
    f.n /= std::sqrt(len2);
    f.d = glm::dot(f.n, pa);
    faces.push_back(f);
    heap.emplace_back(f.d, static_cast<int>(faces.size()) - 1);
    std::push_heap(heap.begin(), heap.end(), std::greater<>());
    return true;
  }

  /// Links edge k of face f with the reverse edge of face g (search over g's edges).
  bool link(int f, int k, int g) {
    for (int j = 0; j < 3; ++j) {
      if (faces[g].v[j] == faces[f].v[(k + 1) % 3] && faces[g].v[(j + 1) % 3] == faces[f].v[k]) {
        faces[f].adj[k] = g, faces[f].adj_edge[k] = j;
        faces[g].adj[j] = f, faces[g].adj_edge[j] = k;
        return true;
      }
    }
    return false;
  }

  /// Marks the faces visible from w dead, entering face f through its edge e, and collects the horizon: (face,
  /// edge) pairs of live faces whose edge borders a dead one (van den Bergen 2003, Alg. 4.4 "silhouette").
  void silhouette(int f, int e, const dvec3& w, std::vector<std::pair<int, int>>& horizon) {
    Face& face = faces[f];
    if (!face.alive) return;
    if (glm::dot(face.n, w) - face.d > 0.0) {
      face.alive = false;
      silhouette(face.adj[(e + 1) % 3], face.adj_edge[(e + 1) % 3], w, horizon);
      silhouette(face.adj[(e + 2) % 3], face.adj_edge[(e + 2) % 3], w, horizon);
    } else {
      horizon.emplace_back(f, e);
    }
  }

  /// Adds vertex w (index wi) seen from face f: removes the visible faces and cones the horizon to w.
  bool expand(int f, int wi, std::vector<std::pair<int, int>>& horizon) {
    const dvec3 w = verts[wi].w;
    horizon.clear();
    faces[f].alive = false;
    for (int k = 0; k < 3; ++k) silhouette(faces[f].adj[k], faces[f].adj_edge[k], w, horizon);
    if (horizon.size() < 3) return false;
    const int first = static_cast<int>(faces.size());
    for (const auto& [g, e] : horizon) {  // new face (edge end, edge start, w) across each horizon edge
      if (!add_face(faces[g].v[(e + 1) % 3], faces[g].v[e], wi)) return false;
      const int nf = static_cast<int>(faces.size()) - 1;
      faces[nf].adj[0] = g, faces[nf].adj_edge[0] = e;
      faces[g].adj[e] = nf, faces[g].adj_edge[e] = 0;
    }
    const int last = static_cast<int>(faces.size());
    for (int i = first; i < last; ++i) {  // edge 1 (v1 -> w) of one cone face meets edge 2 (w -> v0) of another
      bool linked = false;
      for (int j = first; j < last && !linked; ++j) linked = j != i && faces[j].v[0] == faces[i].v[1] && link(i, 1, j);
      if (!linked) return false;  // the horizon is not a simple loop (numerical breakdown)
    }
    return true;
  }
};

/// Distance of x from the affine hull of the points (1 to 3 of them) [m].
double off_hull(const std::vector<SupportPoint>& p, const dvec3& x) {
  const dvec3 r = x - p[0].w;
  if (p.size() == 1) return glm::length(r);
  const dvec3 u = p[1].w - p[0].w;
  if (p.size() == 2) return glm::length(glm::cross(r, u)) / glm::length(u);
  const dvec3 n = glm::cross(u, p[2].w - p[0].w);
  return std::abs(glm::dot(r, n)) / glm::length(n);
}

/// Completes a simplex that touches the origin to a tetrahedron with support points along directions that leave
/// its affine hull (the origin is then in the tetrahedron or on its boundary). False if A - B is flat.
bool blow_up(RelativePair& pair, std::vector<SupportPoint>& p, double min_offset) {
  while (p.size() < 4) {
    std::vector<dvec3> dirs;
    if (p.size() == 1) {
      dirs = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    } else if (p.size() == 2) {
      const dvec3 u = glm::normalize(p[1].w - p[0].w);
      const dvec3 axis = std::abs(u.x) < 0.577 ? dvec3(1, 0, 0) : std::abs(u.y) < 0.577 ? dvec3(0, 1, 0)
                                                                                         : dvec3(0, 0, 1);
      const dvec3 s = glm::normalize(glm::cross(u, axis)), t = glm::cross(u, s);
      dirs = {s, -s, t, -t};
    } else {
      const dvec3 n = glm::cross(p[1].w - p[0].w, p[2].w - p[0].w);
      dirs = {n, -n};
    }
    bool grown = false;
    for (const dvec3& d : dirs) {
      const SupportPoint s = support(pair, d);
      if (off_hull(p, s.w) > min_offset) {
        p.push_back(s);
        grown = true;
        break;
      }
    }
    if (!grown) return false;
  }
  return true;
}

/// Largest separation over the exact candidate axes near the unit guide n (B frame): the face normals of A at A's
/// support vertex along n, those of B at B's support vertex along -n, and the cross products of the edges at these
/// two vertices. Only axes within ~1.4 mrad of n are evaluated (EPA's normal is the optimal one to rounding).
bool snap(RelativePair& pair, const dvec3& n, SeparatingAxis& best) {
  const Polyhedron& a = *pair.a;
  const Polyhedron& b = *pair.b;
  constexpr double kCone = 1.0 - 1e-6;  // cos of the admitted angle from the guide
  const int sa = pair.start_a = support_vertex(a, pair.rot_t * n, pair.start_a);
  const int sb = pair.start_b = support_vertex(b, -n, pair.start_b);
  best.separation = -std::numeric_limits<double>::infinity();
  bool found = false;
  auto consider = [&](double sep, const dvec3& u, AxisKind kind, int ia, int ib) {
    if (!found || sep > best.separation) best = {sep, u, kind, ia, ib};
    found = true;
  };
  auto max_a = [&](const dvec3& u) { return glm::dot(u, pair.vertex_a(support_vertex(a, pair.rot_t * u, sa))); };
  auto min_b = [&](const dvec3& u) { return glm::dot(u, b.vertices[support_vertex(b, -u, sb)]); };
  for (int k = a.vertex_edge_start[sa]; k < a.vertex_edge_start[sa + 1]; ++k) {
    const Edge& e = a.edges[a.vertex_edges[k]];
    for (int f : {e.left_face, e.right_face}) {  // each face is met twice; the repeat is harmless
      const dvec3 u = pair.rot * a.face_planes[f].normal;
      if (glm::dot(u, n) < kCone) continue;
      const double top = -a.face_planes[f].offset + glm::dot(u, pair.trans);  // the face's own plane
      consider(min_b(u) - top, u, AxisKind::FaceA, f, -1);
    }
  }
  for (int k = b.vertex_edge_start[sb]; k < b.vertex_edge_start[sb + 1]; ++k) {
    const Edge& e = b.edges[b.vertex_edges[k]];
    for (int f : {e.left_face, e.right_face}) {
      const dvec3 u = -b.face_planes[f].normal;
      if (glm::dot(u, n) < kCone) continue;
      consider(b.face_planes[f].offset - max_a(u), u, AxisKind::FaceB, -1, f);
    }
  }
  for (int k = a.vertex_edge_start[sa]; k < a.vertex_edge_start[sa + 1]; ++k) {
    const int ea = a.vertex_edges[k];
    const dvec3 da = pair.rot * a.edge_directions[ea];
    for (int j = b.vertex_edge_start[sb]; j < b.vertex_edge_start[sb + 1]; ++j) {
      const int eb = b.vertex_edges[j];
      dvec3 u = glm::cross(da, b.edge_directions[eb]);
      const double len2 = glm::dot(u, u), un = glm::dot(u, n);
      // Parallel edges: their axis is a face normal, handled above. The cone test first, without a square root.
      if (len2 < 1e-20 || un * un < kCone * kCone * len2) continue;
      u *= (un < 0.0 ? -1.0 : 1.0) / std::sqrt(len2);
      consider(min_b(u) - max_a(u), u, AxisKind::EdgePair, ea, eb);
    }
  }
  return found;
}

}  // namespace

bool penetration_epa(RelativePair& pair, const GjkResult& start, SeparatingAxis& out) {
  const double scale = pair.a->bounding_radius + pair.b->bounding_radius;
  thread_local std::vector<SupportPoint> simplex;
  simplex.assign(start.simplex.begin(), start.simplex.begin() + start.size);
  if (!blow_up(pair, simplex, 1e-9 * scale)) return false;
  thread_local Polytope poly;  // reused: its buffers keep their capacity between queries
  poly.verts.clear();
  poly.faces.clear();
  poly.heap.clear();
  poly.min_area2 = 1e-28 * scale * scale * scale * scale;  // doubled area below 1e-14 scale^2
  poly.verts.assign(simplex.begin(), simplex.end());
  // Orient the tetrahedron so that (0, 1, 2) faces away from vertex 3.
  if (glm::dot(glm::cross(simplex[1].w - simplex[0].w, simplex[2].w - simplex[0].w), simplex[3].w - simplex[0].w) >
      0.0) {
    std::swap(poly.verts[1], poly.verts[2]);
  }
  constexpr int kTet[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
  for (const auto& t : kTet) {
    if (!poly.add_face(t[0], t[1], t[2])) return false;
  }
  for (int f = 0; f < 4; ++f) {
    for (int k = 0; k < 3; ++k) {
      bool linked = false;
      for (int g = 0; g < 4 && !linked; ++g) linked = g != f && poly.link(f, k, g);
      if (!linked) return false;
    }
  }
  // EPA proper. The depth lies in [d of the nearest face, support height along its normal]; stop when the support
  // adds nothing (within 1e-13 of the size: rounding) or repeats a vertex pair.
  const double tolerance = 1e-13 * scale;
  const int max_iterations = 4 * (pair.a->vertex_count() + pair.b->vertex_count()) + 64;
  thread_local std::vector<std::pair<int, int>> horizon;
  for (int it = 0; it < max_iterations; ++it) {
    while (!poly.heap.empty() && !poly.faces[poly.heap.front().second].alive) {
      std::pop_heap(poly.heap.begin(), poly.heap.end(), std::greater<>());
      poly.heap.pop_back();
    }
    if (poly.heap.empty()) return false;
    const int f = poly.heap.front().second;
    const dvec3 n = poly.faces[f].n;
    const SupportPoint s = support(pair, n);
    bool repeated = false;
    for (const SupportPoint& v : poly.verts) repeated |= v.ia == s.ia && v.ib == s.ib;
    if (repeated || glm::dot(n, s.w) - poly.faces[f].d <= tolerance) return snap(pair, n, out);
    poly.verts.push_back(s);
    if (!poly.expand(f, static_cast<int>(poly.verts.size()) - 1, horizon)) return false;
  }
  return false;
}

}  // namespace firn::dem

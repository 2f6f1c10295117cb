// GJK distance on the configuration-space obstacle A - B with hill-climbing supports (penetration_gjk.h).
#include "dem/penetration_gjk.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace firn::dem {
namespace {

using glm::dvec3;

/// Projection of the origin onto the affine hull of the simplex points selected by `mask`: the barycentric weights
/// (indexed like the simplex) and the point. False if the points are affinely dependent or a weight is negative
/// (the projection leaves the sub-simplex), i.e. this sub-simplex does not hold the closest point.
bool project_origin(const std::array<SupportPoint, 4>& s, unsigned mask, std::array<double, 4>& weight, dvec3& x) {
  int idx[4];
  int k = 0;
  for (int i = 0; i < 4; ++i) {
    if (mask & (1u << i)) idx[k++] = i;
  }
  const dvec3 q0 = s[idx[0]].w;
  dvec3 e[3];
  for (int i = 1; i < k; ++i) e[i - 1] = s[idx[i]].w - q0;
  double mu[3] = {0.0, 0.0, 0.0};
  if (k == 2) {  // segment: minimise |q0 + mu e0|
    const double g = glm::dot(e[0], e[0]);
    if (!(g > 0.0)) return false;
    mu[0] = -glm::dot(e[0], q0) / g;
  } else if (k == 3) {  // triangle: 2x2 normal equations (Gram matrix), rejected when the angle is below ~1e-6 rad
    const double g00 = glm::dot(e[0], e[0]), g01 = glm::dot(e[0], e[1]), g11 = glm::dot(e[1], e[1]);
    const double r0 = -glm::dot(e[0], q0), r1 = -glm::dot(e[1], q0);
    const double det = g00 * g11 - g01 * g01;
    if (!(det > 1e-12 * g00 * g11)) return false;
    mu[0] = (r0 * g11 - r1 * g01) / det;
    mu[1] = (g00 * r1 - g01 * r0) / det;
  } else if (k == 4) {  // tetrahedron: q0 + [e0 e1 e2] mu = 0 by Cramer's rule
    const double det = glm::dot(e[0], glm::cross(e[1], e[2]));
    if (!(std::abs(det) > 1e-12 * glm::length(e[0]) * glm::length(e[1]) * glm::length(e[2]))) return false;
    mu[0] = -glm::dot(q0, glm::cross(e[1], e[2])) / det;
    mu[1] = -glm::dot(e[0], glm::cross(q0, e[2])) / det;
    mu[2] = -glm::dot(e[0], glm::cross(e[1], q0)) / det;
  }
  weight = {0.0, 0.0, 0.0, 0.0};
  double sum = 0.0;
  x = q0;
  for (int i = 1; i < k; ++i) {
    if (mu[i - 1] < 0.0) return false;
    weight[idx[i]] = mu[i - 1];
    sum += mu[i - 1];
    x += mu[i - 1] * e[i - 1];
  }
  if (sum > 1.0) return false;
  weight[idx[0]] = 1.0 - sum;
  if (k == 4) x = dvec3(0.0);  // the origin itself (inside the tetrahedron)
  return true;
}

/// Sub-simplices that contain the newest point (index n - 1), fewest points first: the closest point of the hull
/// of the old simplex plus a new support point always involves the new point (GJK's progress property).
constexpr std::array<std::array<unsigned, 8>, 5> kMasks{{
    {{0, 0, 0, 0, 0, 0, 0, 0}},
    {{1, 0, 0, 0, 0, 0, 0, 0}},
    {{2, 3, 0, 0, 0, 0, 0, 0}},
    {{4, 5, 6, 7, 0, 0, 0, 0}},
    {{8, 9, 10, 12, 11, 13, 14, 15}},
}};

/// Replaces the simplex by its sub-simplex closest to the origin; false if none qualifies (numerical breakdown).
bool reduce(GjkResult& r, dvec3& v) {
  double best = 0.0;
  unsigned best_mask = 0;
  std::array<double, 4> weight{}, best_weight{};
  dvec3 x(0.0), best_x(0.0);
  for (unsigned mask : kMasks[r.size]) {
    if (mask == 0) break;
    if (!project_origin(r.simplex, mask, weight, x)) continue;
    const double d2 = glm::dot(x, x);
    if (best_mask == 0 || d2 < best) best = d2, best_mask = mask, best_weight = weight, best_x = x;
  }
  if (best_mask == 0) return false;
  int k = 0;
  for (int i = 0; i < r.size; ++i) {
    if (best_mask & (1u << i)) r.simplex[k] = r.simplex[i], r.weights[k++] = best_weight[i];
  }
  r.size = k;
  v = best_x;
  return true;
}

/// Hulls with at most this many vertices are searched by a linear scan (measured crossover on the narrow-phase
/// benchmark's grains: hill climbing visits about as many vertices there, through two indirections each).
constexpr int kScanBelow = 32;

}  // namespace

int support_vertex(const Polyhedron& p, const dvec3& d, int start) {
  if (p.vertex_count() <= kScanBelow) {  // a contiguous scan beats the edge-graph indirections on small hulls
    int best = 0;
    double top = glm::dot(p.vertices[0], d);
    for (int i = 1; i < p.vertex_count(); ++i) {
      const double v = glm::dot(p.vertices[i], d);
      if (v > top) top = v, best = i;
    }
    return best;
  }
  int cur = start;
  if (start < 0) {  // cold: the best of about sqrt(V) vertices spread over the list, which shortens the climb
    const int stride = std::max(1, static_cast<int>(std::sqrt(static_cast<double>(p.vertex_count()))));
    cur = 0;
    for (int i = stride; i < p.vertex_count(); i += stride) {
      if (glm::dot(p.vertices[i], d) > glm::dot(p.vertices[cur], d)) cur = i;
    }
  }
  double best = glm::dot(p.vertices[cur], d);
  for (;;) {
    int next = -1;
    for (int k = p.vertex_edge_start[cur]; k < p.vertex_edge_start[cur + 1]; ++k) {
      const Edge& e = p.edges[p.vertex_edges[k]];
      const int other = e.tail == cur ? e.head : e.tail;
      const double v = glm::dot(p.vertices[other], d);
      if (v > best) best = v, next = other;
    }
    if (next < 0) return cur;
    cur = next;
  }
}

RelativePair relative_pair(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb) {
  RelativePair p;
  p.a = &a;
  p.b = &b;
  const glm::dmat3 rbt = glm::transpose(pb.rotation);
  p.rot = rbt * pa.rotation;
  p.rot_t = glm::transpose(p.rot);
  p.trans = rbt * (pa.position - pb.position);
  return p;
}

SupportPoint support(RelativePair& pair, const dvec3& d) {
  pair.start_a = support_vertex(*pair.a, pair.rot_t * d, pair.start_a);
  pair.start_b = support_vertex(*pair.b, -d, pair.start_b);
  return {pair.vertex_a(pair.start_a) - pair.b->vertices[pair.start_b], pair.start_a, pair.start_b};
}

GjkResult gjk(RelativePair& pair, double relative_tolerance) {
  const double zero = relative_tolerance * (pair.a->bounding_radius + pair.b->bounding_radius);
  dvec3 d = -pair.trans;  // A - B lies around A's origin - B's origin: start on its side facing the origin
  if (!(glm::dot(d, d) > zero * zero)) d = dvec3(1.0, 0.0, 0.0);
  GjkResult r;
  r.simplex[0] = support(pair, d);
  r.size = 1;
  r.weights = {1.0, 0.0, 0.0, 0.0};
  dvec3 v = r.simplex[0].w;
  for (int it = 0; it < 64; ++it) {
    const double vv = glm::dot(v, v);
    if (vv <= zero * zero) {  // the origin lies on the simplex: touching or intersecting
      r.intersecting = true;
      break;
    }
    const SupportPoint s = support(pair, -v);
    bool repeated = false;
    for (int k = 0; k < r.size; ++k) repeated |= s.ia == r.simplex[k].ia && s.ib == r.simplex[k].ib;
    // |v|^2 - v.w is |v| times the gap between the upper bound |v| and the lower bound v.w / |v| on the distance.
    if (repeated || vv - glm::dot(v, s.w) <= relative_tolerance * vv) break;
    const GjkResult before = r;
    r.simplex[r.size++] = s;
    dvec3 x(0.0);
    if (!reduce(r, x) || (r.size < 4 && glm::dot(x, x) >= vv)) {  // no progress: keep the previous simplex
      r = before;
      break;
    }
    v = x;
    if (r.size == 4) {  // the tetrahedron encloses the origin
      r.intersecting = true;
      v = dvec3(0.0);
      break;
    }
  }
  r.closest = v;
  r.distance = r.intersecting ? 0.0 : glm::length(v);
  return r;
}

}  // namespace firn::dem

#include "dem/contact_overlap.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "dem/penetration.h"

namespace firn::dem {
namespace {

using glm::dmat3;
using glm::dvec3;

/// Sums over boundary polygons (given relative to a common apex): volume, first moment, |area . n|.
struct Sums {
  double volume = 0.0;
  dvec3 moment{0.0};
  double shadow = 0.0;  // sum |a_f . n|, twice the projected area of a closed convex surface
  void add(const std::vector<dvec3>& poly, const dvec3& n) {
    dvec3 area(0.0);
    for (std::size_t k = 1; k + 1 < poly.size(); ++k) {
      const dvec3 c = glm::cross(poly[k] - poly[0], poly[k + 1] - poly[0]);
      area += 0.5 * c;
      const double v = glm::dot(poly[0], glm::cross(poly[k], poly[k + 1])) / 6.0;
      volume += v;
      moment += v * 0.25 * (poly[0] + poly[k] + poly[k + 1]);
    }
    shadow += std::abs(glm::dot(area, n));
  }
  OverlapMeasures result(const dvec3& apex) const {
    OverlapMeasures m;
    if (!(volume > 0.0)) return m;
    m.volume = volume;
    m.centroid = apex + moment / volume;
    m.projected_area = 0.5 * shadow;
    return m;
  }
};

/// Keeps the part of the convex polygon with dot(n, x) + offset <= 0; returns false if nothing is left. Polygons
/// entirely inside are left untouched without copying (the common case for all but a few planes).
bool clip(std::vector<dvec3>& poly, const dvec3& n, double offset, std::vector<double>& d, std::vector<dvec3>& out) {
  d.resize(poly.size());
  bool any_out = false, any_in = false;
  for (std::size_t k = 0; k < poly.size(); ++k) {
    d[k] = glm::dot(n, poly[k]) + offset;
    any_out |= d[k] > 0.0;
    any_in |= d[k] <= 0.0;
  }
  if (!any_out) return true;
  if (!any_in) return false;
  out.clear();
  for (std::size_t k = 0; k < poly.size(); ++k) {
    const std::size_t l = (k + 1) % poly.size();
    if (d[k] <= 0.0) out.push_back(poly[k]);
    if ((d[k] <= 0.0) != (d[l] <= 0.0)) out.push_back(poly[k] + (d[k] / (d[k] - d[l])) * (poly[l] - poly[k]));
  }
  poly.swap(out);
  return poly.size() >= 3;
}

/// World-frame vertices and face planes of a placed polyhedron, relative to `apex`, with the range of every face
/// and of the whole body along the contact normal n.
struct Placed {
  std::vector<dvec3> vertices;
  std::vector<dvec3> normals;
  std::vector<double> offsets;
  std::vector<double> face_lo, face_hi;  // min / max of dot(n, x) over each face
  double lo = INFINITY, hi = -INFINITY;  // the same over the body
  std::vector<int> active;               // faces that reach into the slab
};

void place(const Polyhedron& p, const Placement& x, const dvec3& apex, const dvec3& n, Placed& out) {
  out.vertices.clear();
  out.normals.clear();
  out.offsets.clear();
  out.face_lo.clear();
  out.face_hi.clear();
  out.lo = INFINITY;
  out.hi = -INFINITY;
  std::vector<double> h;
  for (const dvec3& v : p.vertices) {
    out.vertices.push_back(to_world(x, v) - apex);
    h.push_back(glm::dot(n, out.vertices.back()));
    out.lo = std::min(out.lo, h.back());
    out.hi = std::max(out.hi, h.back());
  }
  for (int f = 0; f < p.face_count(); ++f) {
    const dvec3 m = x.rotation * p.face_planes[f].normal;
    out.normals.push_back(m);
    out.offsets.push_back(p.face_planes[f].offset - glm::dot(m, x.position - apex));
    double lo = INFINITY, hi = -INFINITY;
    for (int k = p.face_start[f]; k < p.face_start[f + 1]; ++k) {
      lo = std::min(lo, h[p.face_vertices[k]]);
      hi = std::max(hi, h[p.face_vertices[k]]);
    }
    out.face_lo.push_back(lo);
    out.face_hi.push_back(hi);
  }
}

void select_active(Placed& p, double slab_lo, double slab_hi, double tol) {
  p.active.clear();
  for (std::size_t f = 0; f < p.face_lo.size(); ++f) {
    if (p.face_hi[f] >= slab_lo - tol && p.face_lo[f] <= slab_hi + tol) p.active.push_back(static_cast<int>(f));
  }
}

/// Clips each active face of `from` into `into` and adds the pieces. A ∩ B lies in the slab S where the ranges of
/// both bodies along n overlap, so only faces reaching into S can bound it, and for points of S the only planes of
/// `into` that matter are those of its faces reaching into S plus the two slab planes (a facet of into ∩ S lies in
/// a face of `into` that meets S, so every other plane is redundant there). With n the separating-axis normal, S is
/// one penetration depth thick and holds a handful of faces. Faces of `from` lying in a plane of `into` with the
/// same orientation are skipped when `skip_shared` (coincident faces belong to the boundary once).
void add_faces(const Polyhedron& from, const Placed& f, const Placed& into, bool skip_shared, const dvec3& n,
               double slab_lo, double slab_hi, double tol, Sums& sums) {
  thread_local std::vector<dvec3> poly, scratch;
  thread_local std::vector<double> dist;
  for (int face : f.active) {
    poly.clear();
    for (int k = from.face_start[face]; k < from.face_start[face + 1]; ++k) {
      poly.push_back(f.vertices[from.face_vertices[k]]);
    }
    bool shared = false;
    for (int q : into.active) {
      shared |= skip_shared && glm::dot(into.normals[q], f.normals[face]) > 1.0 - 1e-12 &&
                std::abs(into.offsets[q] - f.offsets[face]) <= tol;
    }
    if (shared) continue;
    bool kept = clip(poly, -n, slab_lo, dist, scratch) && clip(poly, n, -slab_hi, dist, scratch);
    for (std::size_t i = 0; i < into.active.size() && kept; ++i) {
      const int q = into.active[i];
      kept = clip(poly, into.normals[q], into.offsets[q], dist, scratch);
    }
    if (kept) sums.add(poly, n);
  }
}

}  // namespace

OverlapMeasures overlap_measures(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                                 const dvec3& normal) {
  const dvec3 apex = 0.5 * (pa.position + pb.position);  // near the overlap: small lever arms, less cancellation
  thread_local Placed xa, xb;
  place(a, pa, apex, normal, xa);
  place(b, pb, apex, normal, xb);
  const double tol = 1e-12 * (a.bounding_radius + b.bounding_radius);
  // A ∩ B lies where A's and B's ranges along the normal overlap (any direction would do; the normal from A to B
  // makes the slab as thin as the penetration depth).
  const double slab_lo = std::max(xa.lo, xb.lo), slab_hi = std::min(xa.hi, xb.hi);
  Sums sums;
  if (slab_lo > slab_hi + tol) return {};
  select_active(xa, slab_lo, slab_hi, tol);
  select_active(xb, slab_lo, slab_hi, tol);
  add_faces(a, xa, xb, false, normal, slab_lo, slab_hi, tol, sums);
  add_faces(b, xb, xa, true, normal, slab_lo, slab_hi, tol, sums);
  return sums.result(apex);
}

OverlapMeasures plane_overlap_measures(const Polyhedron& p, const Placement& x, const dvec3& point,
                                       const dvec3& normal, double& depth, dvec3& deepest) {
  const int nv = p.vertex_count();
  std::vector<dvec3> world(nv);
  std::vector<double> height(nv);
  double min_h = INFINITY;
  for (int i = 0; i < nv; ++i) {
    world[i] = to_world(x, p.vertices[i]);
    height[i] = glm::dot(normal, world[i] - point);
    if (height[i] < min_h) min_h = height[i], deepest = world[i];
  }
  depth = -min_h;
  if (depth <= 0.0) return {};
  // Apex on the plane: the cap polygon then adds no volume or moment; its shadow equals its area, which is
  // -sum a_f . n over the clipped faces (a closed surface has zero total area vector).
  const dvec3 apex = x.position - glm::dot(normal, x.position - point) * normal;
  Sums sums;
  double cap = 0.0;
  std::vector<dvec3> poly;
  for (int f = 0; f < p.face_count(); ++f) {
    poly.clear();
    const int begin = p.face_start[f], end = p.face_start[f + 1];
    for (int k = begin; k < end; ++k) {
      const int i = p.face_vertices[k], j = p.face_vertices[k + 1 < end ? k + 1 : begin];
      if (height[i] <= 0.0) poly.push_back(world[i] - apex);
      if ((height[i] <= 0.0) != (height[j] <= 0.0)) {
        poly.push_back(world[i] + (height[i] / (height[i] - height[j])) * (world[j] - world[i]) - apex);
      }
    }
    if (poly.size() < 3) continue;
    sums.add(poly, normal);
    dvec3 area(0.0);
    for (std::size_t k = 1; k + 1 < poly.size(); ++k) area += 0.5 * glm::cross(poly[k] - poly[0], poly[k + 1] - poly[0]);
    cap -= glm::dot(area, normal);
  }
  sums.shadow += std::abs(cap);
  return sums.result(apex);
}

PairContact pair_contact(const Polyhedron& a, const Placement& pa, const Polyhedron& b, const Placement& pb,
                         FeaturePair& cache) {
  PairContact c;
  const ClosestFeatureResult r = closest_features(a, pa, b, pb, cache);
  c.iterations = r.iterations;
  if (r.status == PairStatus::Separated) {
    c.distance = r.distance;
    return c;
  }
  const SeparatingAxis sat = separating_axis(a, pa, b, pb, true);  // the walk certified the contact
  if (sat.separation > 0.0) return c;  // touching within the walk's tolerance only
  c.depth = -sat.separation;
  c.normal = sat.normal;
  c.overlap = overlap_measures(a, pa, b, pb, c.normal);
  c.touching = c.overlap.volume > 0.0 && c.overlap.projected_area > 0.0;
  return c;
}

}  // namespace firn::dem

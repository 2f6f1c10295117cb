#include "dem/hull.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace firn::dem {
namespace {

using glm::dvec3;

/// One hull triangle; nb[k] is the triangle across the edge v[k] -> v[(k+1)%3].
struct Tri {
  std::array<int, 3> v{};
  std::array<int, 3> nb{-1, -1, -1};
  dvec3 n{0.0};  // outward unit normal
  double d = 0;  // plane n.x + d = 0
  bool alive = true;
};

class IncrementalHull {
 public:
  IncrementalHull(std::span<const dvec3> pts, double eps) : p_(pts), eps_(eps) {
    start_of_.assign(pts.size(), -1);
    end_of_.assign(pts.size(), -1);
    stamp_of_.reserve(4 * pts.size());
  }

  std::vector<Tri> build() {
    const std::array<int, 4> s = initial_simplex();
    seed_tetrahedron(s);
    for (int i = 0; i < static_cast<int>(p_.size()); ++i) {
      if (i != s[0] && i != s[1] && i != s[2] && i != s[3]) add_point(i);
    }
    std::vector<Tri> out;
    std::vector<int> remap(tris_.size(), -1);
    for (std::size_t t = 0; t < tris_.size(); ++t) {
      if (!tris_[t].alive) continue;
      remap[t] = static_cast<int>(out.size());
      out.push_back(tris_[t]);
    }
    for (Tri& t : out) {
      for (int& j : t.nb) j = remap[j];
    }
    return out;
  }

 private:
  double dist(const Tri& t, int i) const { return glm::dot(t.n, p_[i]) + t.d; }

  int make_tri(int a, int b, int c) {
    Tri t;
    t.v = {a, b, c};
    t.n = glm::cross(p_[b] - p_[a], p_[c] - p_[a]);
    const double len = glm::length(t.n);
    if (!(len > 0.0)) throw std::runtime_error("convex_hull: zero-area triangle (numerically degenerate input)");
    t.n /= len;
    t.d = -glm::dot(t.n, p_[a]);
    tris_.push_back(t);
    stamp_of_.push_back(0);
    return static_cast<int>(tris_.size()) - 1;
  }

  std::array<int, 4> initial_simplex() const {
    const int n = static_cast<int>(p_.size());
    dvec3 lo = p_[0], hi = p_[0];
    for (const dvec3& q : p_) {
      lo = glm::min(lo, q);
      hi = glm::max(hi, q);
    }
    const dvec3 ext = hi - lo;
    const int axis = (ext.x >= ext.y && ext.x >= ext.z) ? 0 : (ext.y >= ext.z ? 1 : 2);
    int i0 = 0, i1 = 0;
    for (int i = 1; i < n; ++i) {
      if (p_[i][axis] < p_[i0][axis]) i0 = i;
      if (p_[i][axis] > p_[i1][axis]) i1 = i;
    }
    if (glm::length(p_[i1] - p_[i0]) <= eps_) throw std::runtime_error("convex_hull: all points coincide");
    const dvec3 u = glm::normalize(p_[i1] - p_[i0]);
    int i2 = -1;
    double best = eps_;
    for (int i = 0; i < n; ++i) {
      const dvec3 r = p_[i] - p_[i0];
      const double dl = glm::length(r - glm::dot(r, u) * u);
      if (dl > best) best = dl, i2 = i;
    }
    if (i2 < 0) throw std::runtime_error("convex_hull: all points are collinear (no volume)");
    const dvec3 nrm = glm::normalize(glm::cross(p_[i1] - p_[i0], p_[i2] - p_[i0]));
    int i3 = -1;
    best = eps_;
    for (int i = 0; i < n; ++i) {
      const double dp = std::abs(glm::dot(nrm, p_[i] - p_[i0]));
      if (dp > best) best = dp, i3 = i;
    }
    if (i3 < 0) throw std::runtime_error("convex_hull: all points are coplanar (no volume)");
    return {i0, i1, i2, i3};
  }

  void seed_tetrahedron(const std::array<int, 4>& s) {
    // Orient so that s[3] lies below the plane of (s0, s1, s2).
    std::array<int, 3> base{s[0], s[1], s[2]};
    if (glm::dot(glm::cross(p_[s[1]] - p_[s[0]], p_[s[2]] - p_[s[0]]), p_[s[3]] - p_[s[0]]) > 0.0) {
      std::swap(base[1], base[2]);
    }
    const int a = base[0], b = base[1], c = base[2], d = s[3];
    const int t0 = make_tri(a, b, c), t1 = make_tri(b, a, d), t2 = make_tri(c, b, d), t3 = make_tri(a, c, d);
    // Neighbours across each directed edge, read off the four faces above.
    tris_[t0].nb = {t1, t2, t3};
    tris_[t1].nb = {t0, t3, t2};
    tris_[t2].nb = {t0, t1, t3};
    tris_[t3].nb = {t0, t2, t1};
  }

  void add_point(int i) {
    int seed = -1;
    double best = eps_;
    for (std::size_t t = 0; t < tris_.size(); ++t) {
      if (!tris_[t].alive) continue;
      const double dt = dist(tris_[t], i);
      if (dt > best) best = dt, seed = static_cast<int>(t);
    }
    if (seed < 0) return;  // inside or on the current hull: not an extreme point (within eps)
    ++stamp_;
    collect_visible(seed, i);
    std::vector<std::array<int, 3>> horizon;  // (a, b, outside face) with a -> b ccw in the visible face
    for (int t : visible_) {
      for (int k = 0; k < 3; ++k) {
        const int j = tris_[t].nb[k];
        if (stamp_of_[j] != stamp_) horizon.push_back({tris_[t].v[k], tris_[t].v[(k + 1) % 3], j});
      }
    }
    stitch(horizon, i);
    for (int t : visible_) tris_[t].alive = false;
  }

  /// Connected set of faces that see point i (flood fill from the most visible one, so the set is connected).
  void collect_visible(int seed, int i) {
    visible_.clear();
    visible_.push_back(seed);
    stamp_of_[seed] = stamp_;
    for (std::size_t q = 0; q < visible_.size(); ++q) {
      for (int j : tris_[visible_[q]].nb) {
        if (stamp_of_[j] == stamp_ || dist(tris_[j], i) <= eps_) continue;
        stamp_of_[j] = stamp_;
        visible_.push_back(j);
      }
    }
  }

  void stitch(const std::vector<std::array<int, 3>>& horizon, int apex) {
    std::vector<int> created;
    for (const auto& h : horizon) {
      if (start_of_[h[0]] >= 0 || end_of_[h[1]] >= 0) {
        throw std::runtime_error("convex_hull: non-manifold horizon (numerically degenerate input)");
      }
      const int f = make_tri(h[0], h[1], apex);
      start_of_[h[0]] = f;
      end_of_[h[1]] = f;
      created.push_back(f);
      Tri& out = tris_[h[2]];
      for (int k = 0; k < 3; ++k) {
        if (out.v[k] == h[1] && out.v[(k + 1) % 3] == h[0]) out.nb[k] = f;
      }
      tris_[f].nb[0] = h[2];
    }
    for (int f : created) {
      const int a = tris_[f].v[0], b = tris_[f].v[1];
      tris_[f].nb[1] = start_of_[b];
      tris_[f].nb[2] = end_of_[a];
      if (tris_[f].nb[1] < 0 || tris_[f].nb[2] < 0) {
        throw std::runtime_error("convex_hull: open horizon (numerically degenerate input)");
      }
    }
    for (const auto& h : horizon) start_of_[h[0]] = end_of_[h[1]] = -1;
  }

  std::span<const dvec3> p_;
  double eps_;
  std::vector<Tri> tris_;
  std::vector<int> stamp_of_;
  int stamp_ = 0;
  std::vector<int> visible_;
  std::vector<int> start_of_, end_of_;
};

int find_root(std::vector<int>& parent, int x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

/// Boundary loop of a group of coplanar triangles, or an empty vector if it is not one simple loop.
std::vector<int> group_loop(const std::vector<Tri>& tris, const std::vector<int>& members,
                            const std::vector<int>& group_of, int group, std::size_t n_points) {
  std::vector<int> next(n_points, -1);
  int start = -1, count = 0;
  for (int t : members) {
    for (int k = 0; k < 3; ++k) {
      if (group_of[tris[t].nb[k]] == group) continue;
      const int a = tris[t].v[k], b = tris[t].v[(k + 1) % 3];
      if (next[a] >= 0) return {};
      next[a] = b;
      start = a;
      ++count;
    }
  }
  std::vector<int> loop;
  for (int v = start; static_cast<int>(loop.size()) <= count; v = next[v]) {
    if (v < 0) return {};
    if (!loop.empty() && v == start) break;
    loop.push_back(v);
  }
  if (static_cast<int>(loop.size()) != count) return {};
  return loop;
}

std::vector<std::vector<int>> merge_coplanar(const std::vector<Tri>& tris, std::span<const dvec3> p, double eps) {
  const int nt = static_cast<int>(tris.size());
  std::vector<int> parent(nt);
  std::iota(parent.begin(), parent.end(), 0);
  for (int t = 0; t < nt; ++t) {
    for (int k = 0; k < 3; ++k) {
      const int j = tris[t].nb[k];
      if (j < t) continue;
      const int apex_j = tris[j].v[0] + tris[j].v[1] + tris[j].v[2] - tris[t].v[k] - tris[t].v[(k + 1) % 3];
      const int apex_t = tris[t].v[(k + 2) % 3];
      const bool flat = std::abs(glm::dot(tris[t].n, p[apex_j]) + tris[t].d) <= eps &&
                        std::abs(glm::dot(tris[j].n, p[apex_t]) + tris[j].d) <= eps;
      if (flat) parent[find_root(parent, t)] = find_root(parent, j);
    }
  }
  std::vector<int> group_of(nt);
  std::vector<std::vector<int>> members(nt);
  for (int t = 0; t < nt; ++t) members[group_of[t] = find_root(parent, t)].push_back(t);
  std::vector<std::vector<int>> faces;
  for (int g = 0; g < nt; ++g) {
    if (members[g].empty()) continue;
    std::vector<int> loop = members[g].size() == 1 ? std::vector<int>{}
                                                   : group_loop(tris, members[g], group_of, g, p.size());
    if (!loop.empty()) {
      faces.push_back(std::move(loop));
      continue;
    }
    for (int t : members[g]) faces.push_back({tris[t].v[0], tris[t].v[1], tris[t].v[2]});
  }
  return faces;
}

/// Removes vertices that are not a corner (turn) of any face loop that contains them.
void drop_collinear(std::vector<std::vector<int>>& faces, std::span<const dvec3> p, double eps) {
  std::vector<int> corners(p.size(), 0);
  auto is_corner = [&](const std::vector<int>& f, std::size_t k) {
    const dvec3 a = p[f[(k + f.size() - 1) % f.size()]], b = p[f[k]], c = p[f[(k + 1) % f.size()]];
    const double base = glm::length(c - a);
    return base <= 0.0 || glm::length(glm::cross(b - a, c - a)) > eps * base;
  };
  for (const auto& f : faces) {
    for (std::size_t k = 0; k < f.size(); ++k) corners[f[k]] += is_corner(f, k) ? 1 : 0;
  }
  for (auto& f : faces) {
    std::vector<int> kept;
    for (int v : f) {
      if (corners[v] > 0) kept.push_back(v);
    }
    if (kept.size() >= 3) f = std::move(kept);
  }
}

HullMesh compact(const std::vector<std::vector<int>>& faces, std::span<const dvec3> p) {
  std::vector<int> remap(p.size(), -1);
  for (const auto& f : faces) {
    for (int v : f) remap[v] = 0;
  }
  HullMesh mesh;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (remap[i] < 0) continue;
    remap[i] = static_cast<int>(mesh.vertices.size());
    mesh.vertices.push_back(p[i]);
  }
  for (const auto& f : faces) {
    std::vector<int> g;
    for (int v : f) g.push_back(remap[v]);
    mesh.faces.push_back(std::move(g));
  }
  return mesh;
}

}  // namespace

HullMesh convex_hull(std::span<const dvec3> points, const HullOptions& options) {
  if (points.size() < 4) {
    throw std::runtime_error("convex_hull: need at least 4 points, got " + std::to_string(points.size()));
  }
  dvec3 lo = points[0], hi = points[0];
  for (const dvec3& q : points) {
    if (!std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z)) {
      throw std::runtime_error("convex_hull: point coordinates must be finite");
    }
    lo = glm::min(lo, q);
    hi = glm::max(hi, q);
  }
  if (!(options.relative_tolerance >= 0.0)) throw std::runtime_error("convex_hull: relative_tolerance must be >= 0");
  const double eps = options.relative_tolerance * glm::length(hi - lo);
  IncrementalHull builder(points, eps);
  const std::vector<Tri> tris = builder.build();
  std::vector<std::vector<int>> faces;
  if (options.merge_coplanar) {
    faces = merge_coplanar(tris, points, eps);
    drop_collinear(faces, points, eps);
  } else {
    for (const Tri& t : tris) faces.push_back({t.v[0], t.v[1], t.v[2]});
  }
  return compact(faces, points);
}

}  // namespace firn::dem

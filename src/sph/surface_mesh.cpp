#include "sph/surface_mesh.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <stdexcept>
#include <unordered_map>

namespace firn::sph {
namespace {

/// Lattice points per block edge: a particle's splat (2 h / a + 1 points per axis, 9 at a = s / 2, h = 2 s) covers
/// two or three blocks per axis, and a block's 2 KiB stay in cache while a particle is splatted.
constexpr int kBlock = 8;

using Point = glm::ivec3;

struct PointHash {
  std::size_t operator()(const Point& p) const {
    const uint64_t x = uint32_t(p.x), y = uint32_t(p.y), z = uint32_t(p.z);
    return std::size_t((x * 0x9E3779B97F4A7C15ull) ^ (y * 0xC2B2AE3D27D4EB4Full) ^ (z * 0x165667B19E3779F9ull));
  }
};

/// The lattice values phi of the allocated blocks (kBlock^3 doubles each, x fastest).
class Lattice {
 public:
  double* block(const Point& b) {
    auto [it, added] = blocks_.try_emplace(b);
    if (added) it->second = std::make_unique<double[]>(kBlock * kBlock * kBlock);  // value-initialised: zero
    return it->second.get();
  }
  /// phi at lattice point p; 0 where no block was allocated (no particle within h).
  double at(const Point& p) const {
    const Point b = block_of(p);
    const auto it = blocks_.find(b);
    if (it == blocks_.end()) return 0.0;
    const Point l = p - b * kBlock;
    return it->second[l.x + kBlock * (l.y + kBlock * l.z)];
  }
  static Point block_of(const Point& p) {
    return Point(floor_div(p.x), floor_div(p.y), floor_div(p.z));
  }
  const auto& blocks() const { return blocks_; }
  std::size_t bytes() const { return blocks_.size() * kBlock * kBlock * kBlock * sizeof(double); }

 private:
  static int floor_div(int v) { return v >= 0 ? v / kBlock : -((-v + kBlock - 1) / kBlock); }
  std::unordered_map<Point, std::unique_ptr<double[]>, PointHash> blocks_;
};

/// Adds every particle's m / rho0 W_poly6 to the lattice points within h of it.
Lattice splat(const std::vector<glm::vec4>& particles, const SurfaceMeshSettings& s) {
  const double a = s.lattice, h = s.kernel_radius, h2 = h * h;
  const double poly6 = 315.0 / (64.0 * std::numbers::pi * std::pow(h, 9));
  Lattice lattice;
  for (const glm::vec4& p : particles) {
    const glm::dvec3 x(p);
    const double volume = double(p.w) / s.rest_density;
    const Point lo(glm::ceil((x - h) / a)), hi(glm::floor((x + h) / a));
    for (int bz = Lattice::block_of(lo).z; bz <= Lattice::block_of(hi).z; ++bz)
      for (int by = Lattice::block_of(lo).y; by <= Lattice::block_of(hi).y; ++by)
        for (int bx = Lattice::block_of(lo).x; bx <= Lattice::block_of(hi).x; ++bx) {
          const Point b(bx, by, bz), first = b * kBlock;
          const Point from = glm::max(lo, first), to = glm::min(hi, first + (kBlock - 1));
          double* values = nullptr;
          for (int k = from.z; k <= to.z; ++k)
            for (int j = from.y; j <= to.y; ++j)
              for (int i = from.x; i <= to.x; ++i) {
                const glm::dvec3 r = glm::dvec3(i, j, k) * a - x;
                const double q = h2 - glm::dot(r, r);
                if (q <= 0.0) continue;
                if (!values) values = lattice.block(b);
                const Point l = Point(i, j, k) - first;
                values[l.x + kBlock * (l.y + kBlock * l.z)] += volume * poly6 * q * q * q;
              }
        }
  }
  return lattice;
}

/// Cube corner c (bits: x 1, y 2, z 4) as an offset.
Point corner(int c) { return Point(c & 1, (c >> 1) & 1, (c >> 2) & 1); }

/// Parity of a permutation of 0..3: true when even.
bool even(const std::array<int, 4>& p) {
  int inversions = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) inversions += p[i] > p[j];
  return inversions % 2 == 0;
}

/// The six tetrahedra of the Kuhn decomposition of the unit cube (corners 0 and 7 and one monotone path between
/// them per axis order), each ordered to positive volume.
std::array<std::array<int, 4>, 6> kuhn_tetrahedra() {
  std::array<std::array<int, 4>, 6> tets;
  std::array<int, 3> axes = {0, 1, 2};
  int n = 0;
  do {
    const int a = 1 << axes[0], b = a | (1 << axes[1]);
    std::array<int, 4> t = {0, a, b, 7};
    const glm::dvec3 p0(corner(t[0])), p1(corner(t[1])), p2(corner(t[2])), p3(corner(t[3]));
    if (glm::dot(glm::cross(p1 - p0, p2 - p0), p3 - p0) < 0) std::swap(t[2], t[3]);
    tets[n++] = t;
  } while (std::next_permutation(axes.begin(), axes.end()));
  return tets;
}

struct EdgeKey {
  Point a, b;  ///< lattice points, a < b lexicographically
  bool operator==(const EdgeKey& o) const { return a == o.a && b == o.b; }
};
struct EdgeHash {
  std::size_t operator()(const EdgeKey& e) const { return PointHash{}(e.a) * 31 + PointHash{}(e.b); }
};
bool less(const Point& p, const Point& q) {
  return p.x != q.x ? p.x < q.x : p.y != q.y ? p.y < q.y : p.z < q.z;
}

/// Contours the lattice by marching tetrahedra into `mesh` (positions and triangles).
void contour(const Lattice& lattice, const SurfaceMeshSettings& s, SurfaceMesh& mesh) {
  static const auto tets = kuhn_tetrahedra();
  std::unordered_map<EdgeKey, uint32_t, EdgeHash> vertex_of;
  // The vertex where phi = iso on the lattice edge p-q (one inside, one outside), shared by every tetrahedron
  // that has the edge; computed from the ordered pair so that it does not depend on which one asks first.
  auto vertex = [&](Point p, double fp, Point q, double fq) {
    if (less(q, p)) {
      std::swap(p, q);
      std::swap(fp, fq);
    }
    auto [it, added] = vertex_of.try_emplace(EdgeKey{p, q}, uint32_t(mesh.positions.size()));
    if (added) {
      const double t = (s.iso - fp) / (fq - fp);
      mesh.positions.push_back(glm::vec3((glm::dvec3(p) + t * glm::dvec3(q - p)) * s.lattice));
    }
    return it->second;
  };
  // Every cube with a corner in an allocated block (cubes whose corners are all unallocated hold phi = 0 < iso).
  std::vector<Point> cubes;
  for (const auto& [b, values] : lattice.blocks())
    for (int k = -1; k < kBlock; ++k)
      for (int j = -1; j < kBlock; ++j)
        for (int i = -1; i < kBlock; ++i) {
          const Point c = b * kBlock + Point(i, j, k);
          // A cube starting in the block before belongs to that block when it is allocated.
          if ((i < 0 || j < 0 || k < 0) && lattice.blocks().count(Lattice::block_of(c))) continue;
          cubes.push_back(c);
        }
  std::sort(cubes.begin(), cubes.end(), less);  // a fixed order: the same mesh every run
  cubes.erase(std::unique(cubes.begin(), cubes.end()), cubes.end());
  for (const Point& c : cubes) {
    std::array<double, 8> f;
    int inside = 0;
    for (int v = 0; v < 8; ++v) {
      f[v] = lattice.at(c + corner(v));
      inside += f[v] > s.iso;
    }
    if (inside == 0 || inside == 8) continue;
    for (const auto& t : tets) {
      std::array<int, 4> in{}, out{};
      int ni = 0, no = 0;
      for (int k = 0; k < 4; ++k) (f[t[k]] > s.iso ? in[ni++] : out[no++]) = k;
      if (ni == 0 || no == 0) continue;
      auto edge = [&](int i, int j) { return vertex(c + corner(t[i]), f[t[i]], c + corner(t[j]), f[t[j]]); };
      if (ni == 1 || no == 1) {
        // The lone vertex v and the others (j, k, l) in an even order of the positive tetrahedron: the triangle
        // on v's edges faces away from v (out of the water when v is inside).
        const int v = ni == 1 ? in[0] : out[0];
        std::array<int, 4> p = {v, 0, 0, 0};
        for (int k = 0, m = 1; k < 4; ++k)
          if (k != v) p[m++] = k;
        if (!even(p)) std::swap(p[2], p[3]);
        if (ni == 1)
          mesh.triangles.push_back({edge(v, p[1]), edge(v, p[2]), edge(v, p[3])});
        else
          mesh.triangles.push_back({edge(v, p[1]), edge(v, p[3]), edge(v, p[2])});
      } else {
        // Inside {a, b}, outside {c, d}, (a, b, c, d) even: the quad ac, ad, bd, bc faces towards c and d.
        std::array<int, 4> p = {in[0], in[1], out[0], out[1]};
        if (!even(p)) std::swap(p[2], p[3]);
        const uint32_t ac = edge(p[0], p[2]), ad = edge(p[0], p[3]), bd = edge(p[1], p[3]), bc = edge(p[1], p[2]);
        mesh.triangles.push_back({ac, ad, bd});
        mesh.triangles.push_back({ac, bd, bc});
      }
    }
  }
}

}  // namespace

SurfaceMesh extract_surface(const std::vector<glm::vec4>& particles, const SurfaceMeshSettings& s) {
  check_surface_settings(s);
  const double limit = std::ldexp(1.0, 30) * s.lattice;
  for (const glm::vec4& p : particles)
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z) ||
        glm::any(glm::greaterThan(glm::abs(glm::dvec3(p)) + s.kernel_radius, glm::dvec3(limit))))
      throw std::invalid_argument("sph::extract_surface: a particle position is not finite or more than 2^30 "
                                  "lattice spacings from the origin");
  SurfaceMesh mesh;
  const Lattice lattice = splat(particles, s);
  mesh.lattice_bytes = lattice.bytes();
  contour(lattice, s, mesh);
  set_vertex_normals(mesh);
  return mesh;
}

void check_surface_settings(const SurfaceMeshSettings& s) {
  if (!(s.lattice > 0) || !(s.kernel_radius > 0) || !(s.rest_density > 0) || !(s.iso > 0 && s.iso < 1) ||
      !std::isfinite(s.lattice) || !std::isfinite(s.kernel_radius))
    throw std::invalid_argument("sph::extract_surface: lattice, kernel radius and rest density must be > 0, iso in "
                                "(0, 1)");
}

void set_vertex_normals(SurfaceMesh& mesh) {
  std::vector<glm::dvec3> normals(mesh.positions.size(), glm::dvec3(0.0));
  for (const auto& t : mesh.triangles) {
    const glm::dvec3 a(mesh.positions[t[0]]), b(mesh.positions[t[1]]), c(mesh.positions[t[2]]);
    const glm::dvec3 n = glm::cross(b - a, c - a);  // twice the area times the unit normal
    for (uint32_t v : t) normals[v] += n;
  }
  mesh.normals.resize(normals.size());
  for (std::size_t v = 0; v < normals.size(); ++v) {
    const double len = glm::length(normals[v]);
    mesh.normals[v] = len > 0 ? glm::vec3(normals[v] / len) : glm::vec3(0.0f);
  }
}

double enclosed_volume(const SurfaceMesh& mesh) {
  double v = 0;
  for (const auto& t : mesh.triangles) {
    const glm::dvec3 a(mesh.positions[t[0]]), b(mesh.positions[t[1]]), c(mesh.positions[t[2]]);
    v += glm::dot(a, glm::cross(b, c));
  }
  return v / 6.0;
}

}  // namespace firn::sph

#include "core/fragments.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <stdexcept>

namespace firn {
namespace {

constexpr int64_t kAxisCells = int64_t{1} << 20;  // cells per axis that fit into a 64-bit key (3 x 21 bits)

/// Union-find over point indices with path halving and union by size.
struct DisjointSets {
  std::vector<uint32_t> parent, size;
  explicit DisjointSets(size_t n) : parent(n), size(n, 1) { std::iota(parent.begin(), parent.end(), 0u); }
  uint32_t find(uint32_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  }
  void unite(uint32_t a, uint32_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    if (size[a] < size[b]) std::swap(a, b);
    parent[b] = a;
    size[a] += size[b];
  }
};

int64_t cell_key(const glm::i64vec3& c) { return (c.x * kAxisCells + c.y) * kAxisCells + c.z; }

/// The points binned into cubic cells of edge `link`: a cell's points are one range of `order` and of `keys`.
struct CellBins {
  std::vector<glm::i64vec3> cell;  ///< cell of each point (per axis from the points' lower corner)
  std::vector<uint32_t> order;     ///< point indices sorted by cell key
  std::vector<int64_t> keys;       ///< cell keys in that order
};

CellBins bin_points(const std::vector<glm::dvec3>& points, double link) {
  CellBins b;
  glm::dvec3 lo = points[0];
  for (const glm::dvec3& p : points) lo = glm::min(lo, p);
  b.cell.resize(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    b.cell[i] = glm::i64vec3(glm::floor((points[i] - lo) / link));
    if (glm::any(glm::greaterThanEqual(b.cell[i], glm::i64vec3(kAxisCells - 1))))
      throw std::invalid_argument("find_fragments: the points span more than 2^20 link distances along an axis");
  }
  b.order.resize(points.size());
  std::iota(b.order.begin(), b.order.end(), 0u);
  std::sort(b.order.begin(), b.order.end(),
            [&](uint32_t x, uint32_t y) { return cell_key(b.cell[x]) < cell_key(b.cell[y]); });
  b.keys.resize(points.size());
  for (size_t k = 0; k < b.order.size(); ++k) b.keys[k] = cell_key(b.cell[b.order[k]]);
  return b;
}

/// Unites point i with every later point closer than `link`, looking in the 27 cells around i's.
void link_point(uint32_t i, const std::vector<glm::dvec3>& points, const CellBins& b, double link,
                DisjointSets& sets) {
  for (int dx = -1; dx <= 1; ++dx)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dz = -1; dz <= 1; ++dz) {
        const glm::i64vec3 c = b.cell[i] + glm::i64vec3(dx, dy, dz);
        if (glm::any(glm::lessThan(c, glm::i64vec3(0)))) continue;
        const auto [first, last] = std::equal_range(b.keys.begin(), b.keys.end(), cell_key(c));
        for (auto k = first; k != last; ++k) {
          const uint32_t j = b.order[static_cast<size_t>(k - b.keys.begin())];
          const glm::dvec3 d = points[j] - points[i];
          if (j > i && glm::dot(d, d) < link * link) sets.unite(i, j);
        }
      }
}

}  // namespace

FragmentStats find_fragments(const std::vector<glm::dvec3>& points, double link, size_t min_particles) {
  if (!(link > 0) || !std::isfinite(link)) throw std::invalid_argument("find_fragments: link must be > 0 and finite");
  FragmentStats s;
  if (points.empty()) return s;
  const CellBins bins = bin_points(points, link);
  DisjointSets sets(points.size());
  for (uint32_t i = 0; i < points.size(); ++i) link_point(i, points, bins, link, sets);
  for (uint32_t i = 0; i < points.size(); ++i) {
    if (sets.find(i) != i) continue;
    s.largest = std::max<size_t>(s.largest, sets.size[i]);
    if (sets.size[i] >= min_particles) {
      ++s.fragments;
      s.in_fragments += sets.size[i];
    }
  }
  return s;
}

}  // namespace firn

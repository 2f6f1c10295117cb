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

}  // namespace

FragmentStats find_fragments(const std::vector<glm::dvec3>& points, double link, size_t min_particles) {
  if (!(link > 0) || !std::isfinite(link)) throw std::invalid_argument("find_fragments: link must be > 0 and finite");
  FragmentStats s;
  if (points.empty()) return s;
  glm::dvec3 lo = points[0];
  for (const glm::dvec3& p : points) lo = glm::min(lo, p);
  std::vector<glm::i64vec3> cell(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    cell[i] = glm::i64vec3(glm::floor((points[i] - lo) / link));
    if (glm::any(glm::greaterThanEqual(cell[i], glm::i64vec3(kAxisCells - 1))))
      throw std::invalid_argument("find_fragments: the points span more than 2^20 link distances along an axis");
  }
  // Points sorted by cell key; a cell's points are one range of `order` (and of `keys`, the sorted keys).
  std::vector<uint32_t> order(points.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return cell_key(cell[a]) < cell_key(cell[b]); });
  std::vector<int64_t> keys(points.size());
  for (size_t k = 0; k < order.size(); ++k) keys[k] = cell_key(cell[order[k]]);
  DisjointSets sets(points.size());
  const double link2 = link * link;
  for (uint32_t i = 0; i < points.size(); ++i)
    for (int dx = -1; dx <= 1; ++dx)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dz = -1; dz <= 1; ++dz) {
          const glm::i64vec3 c = cell[i] + glm::i64vec3(dx, dy, dz);
          if (glm::any(glm::lessThan(c, glm::i64vec3(0)))) continue;
          const auto [first, last] = std::equal_range(keys.begin(), keys.end(), cell_key(c));
          for (auto k = first; k != last; ++k) {
            const uint32_t j = order[k - keys.begin()];
            const glm::dvec3 d = points[j] - points[i];
            if (j > i && glm::dot(d, d) < link2) sets.unite(i, j);
          }
        }
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

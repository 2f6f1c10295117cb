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

/// The points binned into cubic cells of edge `edge`: a cell's points are one range of `order` and of `keys`.
struct CellBins {
  std::vector<glm::i64vec3> cell;  ///< cell of each point (per axis from the points' lower corner)
  std::vector<uint32_t> order;     ///< point indices sorted by cell key
  std::vector<int64_t> keys;       ///< cell keys in that order
};

CellBins bin_points(const std::vector<glm::dvec3>& points, double edge) {
  CellBins b;
  glm::dvec3 lo = points[0];
  for (const glm::dvec3& p : points) lo = glm::min(lo, p);
  b.cell.resize(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    b.cell[i] = glm::i64vec3(glm::floor((points[i] - lo) / edge));
    if (glm::any(glm::greaterThanEqual(b.cell[i], glm::i64vec3(kAxisCells - 1))))
      throw std::invalid_argument(
          "find_fragments: the points span more than 2^20 cells of link / sqrt(3) along an axis");
  }
  b.order.resize(points.size());
  std::iota(b.order.begin(), b.order.end(), 0u);
  std::sort(b.order.begin(), b.order.end(),
            [&](uint32_t x, uint32_t y) { return cell_key(b.cell[x]) < cell_key(b.cell[y]); });
  b.keys.resize(points.size());
  for (size_t k = 0; k < b.order.size(); ++k) b.keys[k] = cell_key(b.cell[b.order[k]]);
  return b;
}

/// Links the points of two cells [a0, a1) and [b0, b1) of `order` (already each connected inside): one pair closer
/// than `link` joins them, so the search stops at the first.
void link_cells(size_t a0, size_t a1, size_t b0, size_t b1, const std::vector<glm::dvec3>& points, const CellBins& b,
                double link, DisjointSets& sets) {
  for (size_t i = a0; i < a1; ++i)
    for (size_t j = b0; j < b1; ++j) {
      const glm::dvec3 d = points[b.order[j]] - points[b.order[i]];
      if (glm::dot(d, d) < link * link) {
        sets.unite(b.order[i], b.order[j]);
        return;
      }
    }
}

}  // namespace

FragmentStats find_fragments(const std::vector<glm::dvec3>& points, double link, size_t min_particles) {
  if (!(link > 0) || !std::isfinite(link)) throw std::invalid_argument("find_fragments: link must be > 0 and finite");
  FragmentStats s;
  if (points.empty()) return s;
  // Cells of edge link / sqrt(3) (a hair less): any two points of one cell are closer than `link`, so a cell is
  // joined in one pass, and two cells need only one close pair, tested only while they are still apart. A point
  // compared with every point of the 27 cells of edge `link` around it (as before 2026-11-27) cost O(n^2) where
  // snow is dense: 12 s for the --stats of a 100 k-particle snowball at 1,500 particles per cell.
  const double edge = link / std::sqrt(3.0) * (1.0 - 1e-12);
  const CellBins bins = bin_points(points, edge);
  DisjointSets sets(points.size());
  std::vector<size_t> starts;  // first slot of each occupied cell in bins.order, then the end
  for (size_t k = 0; k < bins.keys.size(); ++k)
    if (k == 0 || bins.keys[k] != bins.keys[k - 1]) starts.push_back(k);
  starts.push_back(bins.keys.size());
  for (size_t c = 0; c + 1 < starts.size(); ++c)
    for (size_t k = starts[c] + 1; k < starts[c + 1]; ++k) sets.unite(bins.order[starts[c]], bins.order[k]);
  // Neighbour cells up to two cells away whose boxes come closer than `link` (the empty cells between them, |d| - 1
  // per axis, span less than link), each unordered pair of cells once (offsets after zero in key order).
  std::vector<glm::i64vec3> offsets;
  for (int64_t dx = -2; dx <= 2; ++dx)
    for (int64_t dy = -2; dy <= 2; ++dy)
      for (int64_t dz = -2; dz <= 2; ++dz) {
        const glm::i64vec3 d(dx, dy, dz), gap = glm::max(glm::abs(d) - int64_t{1}, glm::i64vec3(0));
        if (cell_key(d + glm::i64vec3(2)) <= cell_key(glm::i64vec3(2))) continue;  // zero and the offsets before it
        if (double(gap.x * gap.x + gap.y * gap.y + gap.z * gap.z) * edge * edge < link * link) offsets.push_back(d);
      }
  for (size_t c = 0; c + 1 < starts.size(); ++c) {
    const glm::i64vec3 cell = bins.cell[bins.order[starts[c]]];
    for (const glm::i64vec3& d : offsets) {
      const glm::i64vec3 other = cell + d;
      if (glm::any(glm::lessThan(other, glm::i64vec3(0)))) continue;
      const auto [first, last] = std::equal_range(bins.keys.begin(), bins.keys.end(), cell_key(other));
      if (first == last) continue;
      const auto o0 = static_cast<size_t>(first - bins.keys.begin());
      const auto o1 = static_cast<size_t>(last - bins.keys.begin());
      if (sets.find(bins.order[starts[c]]) == sets.find(bins.order[o0])) continue;
      link_cells(starts[c], starts[c + 1], o0, o1, points, bins, link, sets);
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

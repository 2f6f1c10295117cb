#pragma once
/// Fragments of a particle set: the connected components of the graph that links every two particles closer than a
/// link distance. Used to tell "broke apart" from "stayed one body" in snow runs (the `--stats` line of `firn run`).
#include <cstddef>
#include <vector>

#include <glm/glm.hpp>

namespace firn {

/// Counts of the connected components of a particle set.
struct FragmentStats {
  size_t fragments = 0;  ///< components with at least `min_particles` particles
  size_t largest = 0;    ///< particles in the largest component (0 for no particles)
  size_t in_fragments = 0;  ///< particles in the components counted in `fragments`
};

/// Links every pair of points closer than `link` [m] (strictly) and counts the connected components: those with at
/// least `min_particles` points are fragments, smaller ones (loose grains, spray) are left out of `fragments`.
/// Points are binned into cubic cells of edge link / sqrt(3), whose points are all linked at once; two cells up to
/// two apart are linked by their first close pair, and only while they are still apart: O(n) even where hundreds of
/// points share a link distance. `points` must be finite [m]; throws std::invalid_argument if `link` <= 0 or not
/// finite, or if the points span more than 2^20 cells along an axis.
FragmentStats find_fragments(const std::vector<glm::dvec3>& points, double link, size_t min_particles);

}  // namespace firn

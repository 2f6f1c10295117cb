#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>

#include "dem/polyhedron.h"

namespace firn::dem {
namespace {

using glm::dvec3;

/// Uniform double in [0, 1) from the top 53 bits of one mt19937_64 draw (identical on every standard library, unlike
/// std::uniform_real_distribution whose algorithm is implementation-defined).
double unit_uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

/// Uniform direction on the unit sphere by Archimedes' projection: z uniform in [-1, 1], azimuth uniform.
dvec3 unit_direction(std::mt19937_64& rng) {
  const double z = 2.0 * unit_uniform(rng) - 1.0;
  const double phi = 2.0 * std::numbers::pi * unit_uniform(rng);
  const double r = std::sqrt(std::max(0.0, 1.0 - z * z));
  return {r * std::cos(phi), r * std::sin(phi), z};
}

void check_spec(const EllipsoidGrainSpec& s) {
  auto positive = [](double x) { return std::isfinite(x) && x > 0.0; };
  if (!positive(s.a) || !positive(s.b) || !positive(s.c)) {
    throw std::runtime_error("EllipsoidGrainSpec: semi-axes a, b, c must be finite and > 0");
  }
  if (s.vertex_count < 4) throw std::runtime_error("EllipsoidGrainSpec: vertex_count must be >= 4");
  if (!(s.min_spacing >= 0.0 && s.min_spacing < 1.0)) {
    throw std::runtime_error("EllipsoidGrainSpec: min_spacing must be in [0, 1)");
  }
}

}  // namespace

Placement placement_from_quaternion(const glm::dquat& orientation, const dvec3& position) {
  return Placement{glm::mat3_cast(glm::normalize(orientation)), position};
}

Polyhedron make_box(const dvec3& half_extents) {
  for (int i = 0; i < 3; ++i) {
    if (!(std::isfinite(half_extents[i]) && half_extents[i] > 0.0)) {
      throw std::runtime_error("make_box: half_extents must be finite and > 0");
    }
  }
  std::vector<dvec3> corners;
  for (int i = 0; i < 8; ++i) {
    corners.emplace_back((i & 1 ? 1.0 : -1.0) * half_extents.x, (i & 2 ? 1.0 : -1.0) * half_extents.y,
                         (i & 4 ? 1.0 : -1.0) * half_extents.z);
  }
  return make_polyhedron_from_points(corners);
}

Polyhedron make_regular_tetrahedron(double edge_length) {
  if (!(std::isfinite(edge_length) && edge_length > 0.0)) {
    throw std::runtime_error("make_regular_tetrahedron: edge_length must be finite and > 0");
  }
  const double s = edge_length / (2.0 * std::numbers::sqrt2);  // the (+-1, +-1, +-1) template has edge 2 sqrt 2
  const std::vector<dvec3> corners{{s, s, s}, {s, -s, -s}, {-s, s, -s}, {-s, -s, s}};
  return make_polyhedron_from_points(corners);
}

std::vector<dvec3> sample_ellipsoid_points(const EllipsoidGrainSpec& spec) {
  check_spec(spec);
  std::mt19937_64 rng(spec.seed);
  const int n = spec.vertex_count;
  const double min_chord = spec.min_spacing * std::sqrt(4.0 * std::numbers::pi / n);
  std::vector<dvec3> dirs;
  dirs.reserve(n);
  const long max_attempts = 1000L * n + 10000L;
  for (long attempt = 0; static_cast<int>(dirs.size()) < n; ++attempt) {
    if (attempt >= max_attempts) {
      throw std::runtime_error("sample_ellipsoid_points: cannot place " + std::to_string(n) +
                               " points with min_spacing " + std::to_string(spec.min_spacing));
    }
    const dvec3 d = unit_direction(rng);
    bool ok = true;
    for (const dvec3& q : dirs) {
      if (glm::length(q - d) < min_chord) {
        ok = false;
        break;
      }
    }
    if (ok) dirs.push_back(d);
  }
  for (dvec3& d : dirs) d *= dvec3(spec.a, spec.b, spec.c);
  return dirs;
}

Polyhedron make_ellipsoid_polyhedron(const EllipsoidGrainSpec& spec) {
  return make_polyhedron_from_points(sample_ellipsoid_points(spec));
}

}  // namespace firn::dem

#include "sph/seeding.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include <glm/glm.hpp>

#include "common/bindings.h"
#include "core/symmetric_eigen.h"
#include "sph/kernels.h"

namespace firn::sph {
namespace {

bool inside(const Body& b, const glm::dvec3& x) {
  if (b.shape == BodyShape::kSphere) return glm::length(x - b.center) <= b.radius;
  return glm::all(glm::greaterThanEqual(x, b.min)) && glm::all(glm::lessThanEqual(x, b.max));
}

std::pair<glm::dvec3, glm::dvec3> bounds(const Body& b) {
  if (b.shape == BodyShape::kSphere) return {b.center - b.radius, b.center + b.radius};
  return {b.min, b.max};
}

/// Distance [m] from x, a point of body b, along the unit vector `dir` to where that ray leaves the body (>= 0). A box
/// body is taken as the box its lattice cubes fill, [lo, hi]: the lattice's first points sit half a spacing inside it
/// whatever the body's own corners.
double exit_distance(const Body& b, const glm::dvec3& lo, const glm::dvec3& hi, const glm::dvec3& x,
                     const glm::dvec3& dir) {
  if (b.shape == BodyShape::kSphere) {  // |x - c + t dir|^2 = r^2, the root ahead
    const glm::dvec3 r = x - b.center;
    const double half_b = glm::dot(r, dir), c = glm::dot(r, r) - b.radius * b.radius;
    return std::max(0.0, -half_b + std::sqrt(std::max(0.0, half_b * half_b - c)));
  }
  double t = std::numeric_limits<double>::infinity();
  for (int a = 0; a < 3; ++a) {
    if (dir[a] > 0) t = std::min(t, (hi[a] - x[a]) / dir[a]);
    if (dir[a] < 0) t = std::min(t, (lo[a] - x[a]) / dir[a]);
  }
  return std::max(0.0, t);
}

/// Puts the particles [first, end) of hydrostatic body b at equilibrium under gravity. Depth d is measured along
/// -g from the body's highest point (half a spacing above the highest lattice point). WCSPH: each point is compressed
/// along the line of gravity through it, towards where that line leaves the body below it: a point at uncompressed
/// height eta above that exit point goes to int_0^eta rho0 / rho(d(e)) de. Measuring eta from the body's lowest
/// point instead (as before 2026-11-27) pushed the bottom layer into the floor under tilted gravity: a 0.8 x 0.1 m
/// layer under gravity 30 degrees off the vertical started with particles 0.76 s from their floor images and ended
/// on the compression watchdog at step 0 (tests/sph/test_seeding.cpp). Under gravity along an axis of a box the two
/// agree to the bit. DFSPH (incompressible): the lattice stays, each particle starts with the pressure rho0 |g| d
/// (the warm start of the first constant-density solve).
void compress(const SphSettings& st, const Body& b, const glm::dvec3& gravity, const glm::dvec3& spacing,
              std::vector<GpuParticle>& out, size_t first) {
  const double g = glm::length(gravity);
  if (g <= 0 || first == out.size()) return;
  const glm::dvec3 up = -gravity / g;
  double hi = -std::numeric_limits<double>::infinity();
  glm::dvec3 cubes_lo(std::numeric_limits<double>::infinity()), cubes_hi(-cubes_lo);
  for (size_t i = first; i < out.size(); ++i) {
    const glm::dvec3 x(glm::vec3(out[i].x_m));
    hi = std::max(hi, glm::dot(up, x));
    cubes_lo = glm::min(cubes_lo, x);
    cubes_hi = glm::max(cubes_hi, x);
  }
  // The lattice points stand for cubes of the lattice's spacing: the body spans half of it beyond the extreme points.
  hi += 0.5 * glm::dot(glm::abs(up), spacing);
  cubes_lo -= 0.5 * spacing;
  cubes_hi += 0.5 * spacing;
  if (st.pressure_solver == PressureSolver::kDfsph) {
    for (size_t i = first; i < out.size(); ++i) {
      const double depth = hi - glm::dot(up, glm::dvec3(glm::vec3(out[i].x_m)));
      out[i].a_p.w = static_cast<float>(st.rest_density * g * depth);
    }
    return;
  }
  for (size_t i = first; i < out.size(); ++i) {
    const glm::dvec3 x(glm::vec3(out[i].x_m));
    const double top = hi - glm::dot(up, x);  // depth of the point
    const double eta = exit_distance(b, cubes_lo, cubes_hi, x, -up);
    constexpr int n = 64;  // Simpson's rule; the integrand varies by under 1 % over the body
    double sum = 0;
    for (int k = 0; k <= n; ++k) {
      const double e = eta * k / n;
      const double w = (k == 0 || k == n) ? 1.0 : (k % 2 ? 4.0 : 2.0);
      sum += w * st.rest_density / hydrostatic_density(st, g, top + eta - e);
    }
    const double compressed = sum * eta / (3.0 * n);
    out[i].x_m = glm::vec4(glm::vec3(x + (compressed - eta) * up), out[i].x_m.w);
    out[i].v_rho.w = static_cast<float>(hydrostatic_density(st, g, top));
  }
}

}  // namespace

double hydrostatic_density(const SphSettings& st, double g, double depth) {
  const double p = st.rest_density * g * std::max(depth, 0.0), c2 = st.sound_speed * st.sound_speed;
  if (st.eos == EquationOfState::kLinear) return st.rest_density + p / c2;
  return st.rest_density * std::pow(1.0 + p * 7.0 / (st.rest_density * c2), 1.0 / 7.0);
}

namespace {

/// sum_j f(r_j, y_j) over the points of the rectangular lattice of spacing `spacing` [m] per axis within the kernel
/// support (the origin included): r_j their distance from the origin, y_j their y coordinate [m].
template <class F>
double lattice_sum(const SphSettings& settings, const glm::dvec3& spacing, F f) {
  const double h = settings.h();
  const glm::ivec3 reach(glm::ceil(h / spacing));
  const bool cubic = spacing.x == spacing.y && spacing.y == spacing.z;
  double sum = 0.0;
  for (int i = -reach.x; i <= reach.x; ++i)
    for (int j = -reach.y; j <= reach.y; ++j)
      for (int k = -reach.z; k <= reach.z; ++k) {
        const double r = cubic ? spacing.x * std::sqrt(double(i * i + j * j + k * k))
                               : glm::length(spacing * glm::dvec3(i, j, k));
        sum += f(r, spacing.y * j);
      }
  return sum;
}
/// The same over the cubic lattice of the settings' spacing s.
template <class F>
double lattice_sum(const SphSettings& settings, F f) {
  return lattice_sum(settings, glm::dvec3(settings.spacing), f);
}

/// 1 / sum_j s^3 y_j (y_j / r_j) |dW/dr|(r_j): the discrete gradient of a unit linear field along y, inverted.
template <class DW>
double gradient_correction(const SphSettings& settings, DW dw_dr) {
  const double s = settings.spacing, h = settings.h();
  return 1.0 / lattice_sum(settings, [&](double r, double y) {
    return r <= 0 || r >= h ? 0.0 : s * s * s * y * (y / r) * std::abs(dw_dr(r, h));
  });
}

}  // namespace

double lattice_particle_mass(const SphSettings& settings) {
  const double h = settings.h();
  const bool cubic = settings.pressure_solver == PressureSolver::kDfsph;
  return settings.rest_density /
         lattice_sum(settings, [&](double r, double) { return cubic ? cubic_spline(r, h) : poly6(r, h); });
}

double lattice_mass_ratio(const SphSettings& settings) {
  return lattice_particle_mass(settings) / (settings.rest_density * std::pow(settings.spacing, 3));
}

double pressure_gradient_correction(const SphSettings& settings) {
  return gradient_correction(settings, spiky_gradient_magnitude);
}

double cubic_gradient_correction(const SphSettings& settings) {
  return gradient_correction(settings, cubic_spline_derivative);
}

double continuum_erosion(const SphSettings& settings) {
  const double s = settings.spacing, h = settings.h(), m = lattice_particle_mass(settings);
  const bool cubic = settings.pressure_solver == PressureSolver::kDfsph;
  auto w = [&](double r) { return cubic ? cubic_spline(r, h) : poly6(r, h); };
  // The first layer's images relative to it: lattice points one or more layers below (y <= -s), the particle's own
  // image (0, -s, 0) left out.
  const double images = m * lattice_sum(settings, [&](double r, double y) {
    const bool own = std::abs(r - s) < 1e-9 * s && y < 0;
    return y < -0.5 * s && !own ? w(r) : 0.0;
  });
  // V(D) by Simpson's rule (the integrand is a polynomial of degree <= 8 on each piece of the kernel; 512 intervals
  // put its error far below 1e-9).
  auto half_space = [&](double depth) {
    constexpr int n = 512;
    const double step = (h - depth) / n;
    double sum = 0;
    for (int k = 0; k <= n; ++k) {
      const double r = depth + step * k, f = w(r) * r * (r - depth);
      sum += (k == 0 || k == n ? 1.0 : (k % 2 ? 4.0 : 2.0)) * f;
    }
    return 2.0 * std::numbers::pi * sum * step / 3.0;
  };
  double lo = 0.0, hi = h - 0.5 * s;
  if (settings.rest_density * half_space(0.5 * s) <= images) return 0.0;
  if (settings.rest_density * half_space(0.5 * s + hi) > images) return 0.0;
  for (int it = 0; it < 60; ++it) {  // V falls with depth: bisection
    const double mid = 0.5 * (lo + hi);
    (settings.rest_density * half_space(0.5 * s + mid) > images ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

ExplicitCouplingSums explicit_coupling_sums(const SphSettings& settings) {
  const double h = settings.h(), s = settings.spacing;
  const double scale = s * s * s * 45.0 / (std::numbers::pi * std::pow(h, 6));
  ExplicitCouplingSums sums;
  const int reach = int(std::ceil(h / s));
  for (int i = -reach; i <= reach; ++i)
    for (int j = -reach; j <= reach; ++j)
      for (int k = -reach; k <= reach; ++k) {
        const double r = s * glm::length(glm::dvec3(i, j, k));
        if (r <= 0.0 || r >= h) continue;
        sums.viscosity += scale * (h - r);
        sums.damping += scale * (h - r) * (h - r) / r;
      }
  return sums;
}

namespace {

/// The offsets d of the unit lattice with 0 < |d| < ratio (a particle's neighbours at support h / s = ratio).
std::vector<glm::dvec3> unit_lattice_offsets(double ratio) {
  std::vector<glm::dvec3> offsets;
  const int reach = int(std::ceil(ratio));
  for (int i = -reach; i <= reach; ++i)
    for (int j = -reach; j <= reach; ++j)
      for (int k = -reach; k <= reach; ++k) {
        const double r = glm::length(glm::dvec3(i, j, k));
        if (r > 0.0 && r < ratio) offsets.emplace_back(i, j, k);
      }
  return offsets;
}

/// The largest value of `symbol(k)` over wave vectors k on a grid of [0, pi]^3 (the unit lattice's symbols are even
/// and periodic in every component of k, so that cube covers them). 24 steps per axis resolve the maxima of
/// jacobi_spectral_radius to 1e-3 relative at h = 2 s and 3 s (a finer grid moves the third digit at most).
template <class Symbol>
double max_over_wave_vectors(Symbol symbol) {
  constexpr int kSteps = 24;
  double best = 0.0;
  for (int a = 0; a <= kSteps; ++a)
    for (int b = 0; b <= kSteps; ++b)
      for (int c = 0; c <= kSteps; ++c) best = std::max(best, symbol(std::numbers::pi / kSteps * glm::dvec3(a, b, c)));
  return best;
}

/// dfsph_jacobi_spectral_radius for support h / s = `ratio` on the unit lattice.
double jacobi_spectral_radius(double ratio) {
  const std::vector<glm::dvec3> offsets = unit_lattice_offsets(ratio);
  std::vector<glm::dvec3> gradients;
  double sum_squares = 0.0;
  for (const glm::dvec3& d : offsets) {
    const double r = glm::length(d);
    gradients.push_back(cubic_spline_derivative(r, ratio) / r * d);
    sum_squares += glm::dot(gradients.back(), gradients.back());
  }
  return max_over_wave_vectors([&](const glm::dvec3& wave) {
    glm::dvec3 symbol(0.0);
    for (size_t n = 0; n < offsets.size(); ++n) symbol += gradients[n] * std::sin(glm::dot(wave, offsets[n]));
    return glm::dot(symbol, symbol) / sum_squares;
  });
}

/// The largest eigenvalue over the wave vectors k of S(k) = sum_d H(d) (1 - cos(k . d)) on the unit lattice, H the
/// Hessian of the cubic spline of support `ratio` (see dfsph_pressure_stiffness).
double pressure_stiffness_symbol(double ratio) {
  const std::vector<glm::dvec3> offsets = unit_lattice_offsets(ratio);
  std::vector<glm::dmat3> hessians;
  for (const glm::dvec3& d : offsets) {
    // grad W = W'(r) d / r, so H = W''(r) n n^T + W'(r) / r (I - n n^T) with n = d / r.
    const double r = glm::length(d);
    const glm::dmat3 nn = glm::outerProduct(d, d) / (r * r);
    hessians.push_back(cubic_spline_second_derivative(r, ratio) * nn +
                       cubic_spline_derivative(r, ratio) / r * (glm::dmat3(1.0) - nn));
  }
  return max_over_wave_vectors([&](const glm::dvec3& wave) {
    glm::dmat3 symbol(0.0);
    for (size_t n = 0; n < offsets.size(); ++n) symbol += hessians[n] * (1.0 - std::cos(glm::dot(wave, offsets[n])));
    return symmetric_eigen(symbol).values[2];
  });
}

}  // namespace

double dfsph_pressure_stiffness(const SphSettings& settings) {
  const double s = settings.spacing;
  return 2.0 * lattice_mass_ratio(settings) * cubic_gradient_correction(settings) *
         pressure_stiffness_symbol(settings.h() / s) / (settings.rest_density * s * s);
}

double dfsph_jacobi_spectral_radius(const SphSettings& settings) {
  return jacobi_spectral_radius(settings.h() / settings.spacing);
}

uint32_t dfsph_divergence_min_neighbours(const SphSettings& settings) {
  // SPlisHSPlasH's 20 of the 26 lattice neighbours at its support h = 2 s (docs in seeding.h).
  constexpr double kSplishsplashShare = 20.0 / 26.0;
  const double lattice = static_cast<double>(unit_lattice_offsets(settings.h() / settings.spacing).size());
  return static_cast<uint32_t>(std::ceil(kSplishsplashShare * lattice - 1e-9));
}

double dfsph_relaxation(const SphSettings& settings) {
  const double ratio = settings.h() / settings.spacing;
  if (ratio <= 2.0) return DFSPH_RELAXATION;
  static const double at_two_spacings = jacobi_spectral_radius(2.0);  // the validated setting's, computed once
  return DFSPH_RELAXATION * at_two_spacings / jacobi_spectral_radius(ratio);
}

namespace {

/// An axis-aligned wall on one axis: its position [m] along the axis and whether the water lies above it (a floor
/// facing +axis) or below it (a ceiling facing -axis); `lo`, `hi` its extent on all axes (infinite for a plane).
struct AxisWall {
  double at = 0;
  bool floor = true;
  glm::dvec3 lo{-std::numeric_limits<double>::infinity()}, hi{std::numeric_limits<double>::infinity()};
};

/// The walls on `axis` that water can rest against, in order: the domain's two faces, then the colliders (planes
/// whose normal is the axis, the faces of boxes) and the boundary slabs whose front faces along the axis.
std::vector<AxisWall> axis_walls(const SphSettings& settings, const std::vector<Collider>& colliders, int axis) {
  std::vector<AxisWall> walls{{settings.domain_min[axis], true}, {settings.domain_max[axis], false}};
  auto along = [&](const glm::dvec3& n) { return std::abs(std::abs(n[axis]) - 1.0) < 1e-9; };
  for (const Collider& c : colliders) {
    if (c.shape == ColliderShape::kPlane && along(c.normal)) walls.push_back({c.point[axis], c.normal[axis] > 0});
    if (c.shape == ColliderShape::kBox) {
      const glm::dvec3 lo = c.point - c.half_extent, hi = c.point + c.half_extent;
      walls.push_back({hi[axis], true, lo, hi});
      walls.push_back({lo[axis], false, lo, hi});
    }
  }
  for (const Region& r : settings.regions)
    if (r.action == RegionAction::kBoundary && along(r.normal))
      walls.push_back({r.point[axis], r.normal[axis] > 0, r.min, r.max});
  return walls;
}

/// The seeding lattice: points origin + spacing * (k + 1/2) for integer k (per axis) [m].
struct Lattice {
  glm::dvec3 origin{0.0}, spacing{0.0};
};

/// Whether the water of body b rests against wall w on `axis`: the body's side facing the wall lies within s / 2 of
/// it, or up to a spacing beyond it inside the wall's solid (a plane, or a box or slab whose extent on the other axes
/// holds the body's), while the body reaches past the wall on the water's side. A tank of planes set in from the
/// domain's faces by a fraction of a spacing with the water given from the domain's corner (what a user writes) is
/// such a body: anchored at the faces instead, its first layer lay up to s / 2 inside the planes, the check that
/// solids start clear of the water (a quarter spacing deep) passed it, and DFSPH ended at step 0 on the CFL check
/// (planes 0.5-0.6 s inside the faces). A spacing is the lattice's own resolution of where the water begins; a body
/// reaching deeper into a solid is a real overlap, which the app refuses naming the solid (app/simulation.cpp
/// check_solids_clear_of_water) rather than dropping that water unseen.
bool rests_against(const AxisWall& w, const Body& b, int axis, double s) {
  const auto [lo, hi] = bounds(b);
  bool overlaps = true, held = true;
  for (int o = 0; o < 3; ++o) {
    if (o == axis) continue;
    overlaps = overlaps && lo[o] < w.hi[o] && hi[o] > w.lo[o];
    held = held && lo[o] >= w.lo[o] && hi[o] <= w.hi[o];
  }
  if (!overlaps) return false;
  // The body's side facing the wall, as a height above the wall on the water's side, and the body's far side.
  const double side = w.floor ? lo[axis] - w.at : w.at - hi[axis];
  const double reach = w.floor ? hi[axis] - w.at : w.at - lo[axis];
  return std::abs(side) < 0.5 * s || (side < 0 && side > -s && held && reach > 0.5 * s);
}

/// The lattice of seed_bodies: per axis, layers s / 2 from the walls the water rests against (rests_against), where
/// the mirror images of a domain face and the continuum of a solid (docs/water.md "Solids") expect them. Per axis,
/// with L the highest floor wall rested against and H the lowest ceiling (the walls nearest the water: a plane set
/// in from a face bounds the water, not the face):
/// - both: n = round((H - L) / s) layers fill the span, each (H - L) / n thick (none under s / 2): the lattice is
///   stretched or squeezed by at most half a spacing over the span, 1 / (2 n) of it. Anchored at L with whole
///   spacings, the remainder (up to s) was split between the two walls, and a tank of planes set in by 0.1 s from
///   the faces started with gaps of 0.4 s beside its walls that its column fell into at 1.3 m/s (DFSPH, s = 2 cm);
/// - one: spacing s, a layer s / 2 from it;
/// - none: spacing s from the domain minimum.
/// A span of a whole number of spacings (within 1e-9) keeps s exactly. The origin is then moved down by whole
/// spacings to within one spacing above the domain minimum.
Lattice seeding_lattice(const SphSettings& settings, const std::vector<Collider>& colliders) {
  const double s = settings.spacing;
  Lattice lattice{settings.domain_min, glm::dvec3(s)};
  for (int a = 0; a < 3; ++a) {
    std::optional<double> floor_at, ceiling_at;
    for (const AxisWall& w : axis_walls(settings, colliders, a)) {
      for (const Body& b : settings.bodies) {
        if (!rests_against(w, b, a, s)) continue;
        if (w.floor) floor_at = std::max(floor_at.value_or(w.at), w.at);
        if (!w.floor) ceiling_at = std::min(ceiling_at.value_or(w.at), w.at);
      }
    }
    double o = settings.domain_min[a];
    if (floor_at && ceiling_at && *ceiling_at > *floor_at) {
      // n = 0 (a gap under s / 2): no layer fits; spacing s from the floor puts the first one beyond the ceiling.
      const double layers = (*ceiling_at - *floor_at) / s, n = std::round(layers);
      if (n >= 1 && std::abs(layers - n) > 1e-9) lattice.spacing[a] = (*ceiling_at - *floor_at) / n;
      o = *floor_at;
    } else if (floor_at) {
      o = *floor_at;
    } else if (ceiling_at) {
      o = *ceiling_at;
    }
    // The same layers, from the whole spacings above the domain minimum (1e-9: a wall on a layer boundary stays).
    const double step = lattice.spacing[a];
    lattice.origin[a] = o - step * std::floor((o - settings.domain_min[a]) / step + 1e-9);
  }
  return lattice;
}

}  // namespace

std::vector<GpuParticle> seed_bodies(const SphSettings& settings, const glm::dvec3& gravity,
                                     const std::vector<Collider>& colliders) {
  const Lattice lattice = seeding_lattice(settings, colliders);
  const glm::dvec3 origin = lattice.origin, s = lattice.spacing;
  // The mass that gives rest density on the lattice (lattice_particle_mass where it is cubic).
  const bool cubic_spline_density = settings.pressure_solver == PressureSolver::kDfsph;
  const double mass = s == glm::dvec3(settings.spacing)
                          ? lattice_particle_mass(settings)
                          : settings.rest_density / lattice_sum(settings, s, [&](double r, double) {
                              return cubic_spline_density ? cubic_spline(r, settings.h()) : poly6(r, settings.h());
                            });
  std::vector<GpuParticle> out;
  std::set<std::tuple<long, long, long>> taken;
  // Whole lattice cubes per axis from the origin within the domain (1e-9: a domain of a whole number of spacings
  // keeps its last cube despite rounding).
  const glm::dvec3 cells = glm::floor((settings.domain_max - origin) / s + 1e-9);
  for (const Body& b : settings.bodies) {
    const size_t first = out.size();
    auto [lo, hi] = bounds(b);
    // Not beyond the walls the body rests against (rests_against): their solids hold no water.
    for (int a = 0; a < 3; ++a)
      for (const AxisWall& w : axis_walls(settings, colliders, a))
        if (rests_against(w, b, a, settings.spacing)) {
          if (w.floor) lo[a] = std::max(lo[a], w.at);
          if (!w.floor) hi[a] = std::min(hi[a], w.at);
        }
    // Within the body, and with the lattice cube inside the domain.
    const glm::dvec3 k_lo = glm::max(glm::ceil((lo - origin) / s - 0.5), glm::dvec3(0.0));
    const glm::dvec3 k_hi = glm::min(glm::floor((hi - origin) / s - 0.5), cells - 1.0);
    for (long kz = long(k_lo.z); kz <= long(k_hi.z); ++kz)
      for (long ky = long(k_lo.y); ky <= long(k_hi.y); ++ky)
        for (long kx = long(k_lo.x); kx <= long(k_hi.x); ++kx) {
          const glm::dvec3 x = origin + s * (glm::dvec3(kx, ky, kz) + 0.5);
          if (!inside(b, x) || !taken.emplace(kx, ky, kz).second) continue;
          GpuParticle p{};
          p.x_m = glm::vec4(glm::vec3(x), static_cast<float>(mass));
          p.v_rho = glm::vec4(glm::vec3(b.velocity), static_cast<float>(settings.rest_density));
          p.id = glm::uvec4(static_cast<uint32_t>(out.size()), 0, 0, 0);
          out.push_back(p);
        }
    if (b.hydrostatic) compress(settings, b, gravity, s, out, first);
  }
  return out;
}

}  // namespace firn::sph

#include "cpu_reference.h"

#include "cpu_boundary.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <functional>
#include <numbers>
#include <optional>

namespace firn::sphref {
namespace {

using sph::GpuParticle;
constexpr double kPi = std::numbers::pi;

double w_spiky(double r, double h) { return r < h ? 15.0 / (kPi * std::pow(h, 6)) * std::pow(h - r, 3) : 0; }

/// Integral of W over the plane at distance z from the particle: 2 pi int_z^h W(r) r dr.
double plane_integral(double (*w)(double, double), double z, double h) {
  return 2.0 * kPi * simpson([&](double r) { return w(r, h) * r; }, z, h);
}

struct Wall {
  double d;
  glm::dvec3 n;
  glm::dvec3 velocity{0.0};
  double friction = 0;
  Boundary kind = Boundary::kSeparate;
};

bool inside_box(const glm::dvec3& x, const glm::dvec3& lo, const glm::dvec3& hi) {
  return glm::all(glm::greaterThanEqual(x, lo)) && glm::all(glm::lessThanEqual(x, hi));
}

size_t wall_count(const Setup& s) { return s.colliders.size() + 6 + s.settings.regions.size(); }

/// How close [m] a particle may come to a wall: the seeding lattice's first layer, half a spacing in front of it, and
/// under WCSPH that layer compressed against the wall up to the watchdog's bound (integrate.comp wall_margin).
double wall_margin(const sph::SphSettings& st) {
  const double half = 0.5 * st.spacing;
  return st.pressure_solver == sph::PressureSolver::kDfsph ? half : half / (1.0 + st.max_compression);
}

/// Wall k at x as its surface gives it (d: signed distance from the surface, positive in the water); empty where wall
/// k does not apply at x (a slab beyond its box grown by the margin towards the water, or deeper than its thickness).
std::optional<Wall> wall_at_surface(const Setup& s, size_t k, const glm::dvec3& x) {
  if (k < s.colliders.size()) {
    const Collider& c = s.colliders[k];
    return Wall{signed_distance(c, x), surface_normal(c, x), c.velocity, c.friction, c.boundary};
  }
  k -= s.colliders.size();
  if (k < 6) {
    const int axis = int(k / 2);
    glm::dvec3 n(0.0);
    n[axis] = k % 2 ? -1.0 : 1.0;
    return Wall{k % 2 ? s.settings.domain_max[axis] - x[axis] : x[axis] - s.settings.domain_min[axis], n};
  }
  const sph::Region& r = s.settings.regions[k - 6];
  const double margin = wall_margin(s.settings);
  if (r.action != sph::RegionAction::kBoundary || !inside_box(x - margin * r.normal, r.min, r.max)) return std::nullopt;
  const double d = glm::dot(x - r.point, r.normal);
  if (d <= -(r.thickness > 0 ? r.thickness : 2 * s.settings.h())) return std::nullopt;
  return Wall{d, r.normal};
}

/// Wall k at x, enumerated as in boundary.glsl: colliders, the domain faces (x lo, x hi, y lo, ...), then the
/// boundary slabs; d is the distance from the wall less the margin. Empty when wall k does not apply at x: a slab
/// applies within its box moved towards the water by the margin.
std::optional<Wall> wall_at(const Setup& s, size_t k, const glm::dvec3& x) {
  std::optional<Wall> w = wall_at_surface(s, k, x);
  if (w) w->d -= wall_margin(s.settings);
  return w;
}

/// Reflection of x across the domain faces closer than h to `xi` selected by `mask` (bit a = axis a); false when
/// an axis in the mask has no such face (the method of images, as mirror.glsl).
bool reflect(const Setup& s, const glm::dvec3& xi, unsigned mask, glm::dvec3& x) {
  const sph::SphSettings& st = s.settings;
  for (int a = 0; a < 3; ++a) {
    if (!(mask & (1u << a))) continue;
    if (xi[a] - st.domain_min[a] < st.h()) {
      x[a] = 2 * st.domain_min[a] - x[a];
    } else if (st.domain_max[a] - xi[a] < st.h()) {
      x[a] = 2 * st.domain_max[a] - x[a];
    } else {
      return false;
    }
  }
  return true;
}

/// The velocity of an image: free-slip faces reverse its normal component, no-slip faces all of it.
glm::dvec3 image_velocity(const sph::SphSettings& s, unsigned mask, const glm::dvec3& v) {
  glm::dvec3 out = v;
  for (int a = 0; a < 3; ++a) {
    if (!(mask & (1u << a))) continue;
    if (s.no_slip[a]) out = -out;
    else out[a] = -out[a];
  }
  return out;
}

double pressure_of(const sph::SphSettings& s, double rho) {
  const double c2 = s.sound_speed * s.sound_speed;
  const double p = s.eos == sph::EquationOfState::kTait
                       ? s.rest_density * c2 / 7.0 * (std::pow(rho / s.rest_density, 7) - 1.0)
                       : c2 * (rho - s.rest_density);
  return std::max(p, 0.0);
}

glm::dvec3 pos(const GpuParticle& p) { return glm::dvec3(glm::vec3(p.x_m)); }
glm::dvec3 vel(const GpuParticle& p) { return glm::dvec3(glm::vec3(p.v_rho)); }

}  // namespace

double wall_volume_poly6(double d, double h) {
  return simpson([&](double z) { return plane_integral(w_poly6, z, h); }, std::max(d, 0.0), h);
}

double wall_area_spiky(double d, double h) { return plane_integral(w_spiky, std::max(d, 0.0), h); }

std::vector<Density> density(const Setup& s, const std::vector<GpuParticle>& particles) {
  const double h = s.settings.h(), h2 = static_cast<float>(h * h);
  std::vector<Density> out(particles.size());
  for (size_t i = 0; i < particles.size(); ++i) {
    const glm::dvec3 xi = pos(particles[i]);
    double sum = 0;
    int n = 0;
    for (unsigned mask = 0; mask < 8; ++mask)
      for (const GpuParticle& pj : particles) {
        glm::dvec3 xj = pos(pj);
        if (!reflect(s, xi, mask, xj)) break;
        const glm::dvec3 r = xi - xj;
        if (glm::dot(r, r) >= h2) continue;
        sum += pj.x_m.w * w_poly6(glm::length(r), h);
        ++n;
      }
    double walls = 0;
    const auto shares = boundary_shares(s.settings, s.colliders, xi, particles[i].x_m.w, Rule::kShader);
    for (const SolidShare& b : shares) walls += b.v;
    out[i].rho = sum + s.settings.rest_density * walls;
    out[i].p = pressure_of(s.settings, out[i].rho);
    // Each float term (h^2 - r^2)^3 is off by at most ~12 FLT_EPSILON h^6 (r^2 and the difference rounded), the
    // sum by n FLT_EPSILON of its value: 64 eps per term covers both. The solids' float sums over 256 rays (and
    // interval ends from float positions) by ~100 eps of rho0 per solid.
    out[i].rho_bound = 64.0 * FLT_EPSILON * ((n + 1) * particles[i].x_m.w * w_poly6(0, h) + out[i].rho) +
                       100.0 * FLT_EPSILON * s.settings.rest_density * double(shares.size());
  }
  return out;
}

double pressure_gradient_correction(const sph::SphSettings& st) {
  // 1 / sum over the seeding lattice of s^3 (x_j - x_i)_y (-d/dy W_spiky): the discrete gradient of a linear field.
  const double s = st.spacing, h = st.h();
  const int reach = int(std::ceil(h / s));
  double k = 0;
  for (int a = -reach; a <= reach; ++a)
    for (int b = -reach; b <= reach; ++b)
      for (int c = -reach; c <= reach; ++c) {
        const double r = s * std::sqrt(double(a * a + b * b + c * c));
        if (r <= 0 || r >= h) continue;
        const double ry = s * b;
        k += s * s * s * ry * ry / r * 45.0 / (kPi * std::pow(h, 6)) * (h - r) * (h - r);
      }
  return 1.0 / k;
}

std::vector<Acceleration> forces(const Setup& s, const std::vector<GpuParticle>& particles) {
  const sph::SphSettings& st = s.settings;
  const double h = st.h(), h2 = static_cast<float>(h * h);
  const double c_spiky = 45.0 / (kPi * std::pow(h, 6)), c_poly6 = -945.0 / (32.0 * kPi * std::pow(h, 9));
  const double correction = pressure_gradient_correction(st);
  // Monaghan's artificial viscosity (SphSettings::artificial_viscosity; Monaghan 1992, 2005 Sec. 4.4) with the
  // smoothing length h_s = h / 2: between approaching pairs a term Pi_ij in the pressure's place, at the continuum
  // solids the viscosity it amounts to, alpha rho0 c h_s / 10, on the normal approach only.
  const double hs = h / 2, alpha_c_hs = st.artificial_viscosity * st.sound_speed * hs;
  const double mu_damping = st.artificial_viscosity * st.rest_density * st.sound_speed * hs / 10.0;
  // The step over which the solids' push is sampled for its spread (below): 64 eps of the domain's extent.
  double extent = 0;
  for (int k = 0; k < 3; ++k) extent = std::max({extent, std::abs(st.domain_min[k]), std::abs(st.domain_max[k])});
  const glm::dvec3 push_delta(64.0 * FLT_EPSILON * extent / std::sqrt(3.0));
  std::vector<Acceleration> out(particles.size());
  for (size_t i = 0; i < particles.size(); ++i) {
    const GpuParticle& pi = particles[i];
    const glm::dvec3 xi = pos(pi), vi = vel(pi);
    const double rho_i = pi.v_rho.w, p_i = pi.a_p.w;
    glm::dvec3 a(0.0), grad_c(0.0);
    double lap_c = 0, magnitude = 0;
    for (unsigned mask = 0; mask < 8; ++mask)
      for (size_t j = 0; j < particles.size(); ++j) {
        const GpuParticle& pj = particles[j];
        glm::dvec3 xj = pos(pj);
        if (!reflect(s, xi, mask, xj)) break;
        const glm::dvec3 r = xi - xj, vj = image_velocity(st, mask, vel(pj));
        const double r2 = glm::dot(r, r);
        if (r2 >= h2) continue;
        const double rl = std::sqrt(r2), m = pj.x_m.w, rho_j = pj.v_rho.w;
        lap_c += m / rho_j * c_poly6 * (h * h - r2) * (3 * h * h - 7 * r2);
        if (j == i && mask == 0) continue;
        if (rl > 0) {
          const glm::dvec3 grad_w = -correction * c_spiky * (h - rl) * (h - rl) * r / rl;  // grad_i W_spiky
          const glm::dvec3 term = -m * (p_i / (rho_i * rho_i) + pj.a_p.w / (rho_j * rho_j)) * grad_w;
          a += term;
          magnitude += glm::length(term);
          const double approach = glm::dot(vi - vj, r);  // < 0: the pair closes in
          if (alpha_c_hs > 0 && approach < 0) {
            const double pi_ij = -alpha_c_hs * approach / (0.5 * (rho_i + rho_j) * (r2 + 0.01 * hs * hs));
            const glm::dvec3 damp = -m * pi_ij * grad_w;
            a += damp;
            magnitude += glm::length(damp);
          }
        }
        const glm::dvec3 visc = st.viscosity / rho_i * m * (vj - vi) / rho_j * c_spiky * (h - rl);
        a += visc;
        magnitude += glm::length(visc);
        grad_c += m / rho_j * c_poly6 * std::pow(h * h - r2, 2) * r;
      }
    const double n_len = glm::length(grad_c);
    out[i].near_threshold = st.surface_tension > 0 && std::abs(n_len - st.surface_threshold) < 1e-3 * st.surface_threshold;
    out[i].tension = st.surface_tension > 0 && n_len > st.surface_threshold;
    if (out[i].tension) {
      const glm::dvec3 f = -st.surface_tension * lap_c * grad_c / (n_len * rho_i);
      a += f;
      magnitude += glm::length(f) * 8.0;  // lap c cancels between the self term and the neighbours
    }
    // The colliders and slabs: their push (the continuum as images of other particles, pushing as a pair of equal
    // pressures does, plus the own image), the ghost velocity in the viscous term. G is a sum
    // over 256 rays (and, beyond the faces, their mirrored parts) that round relative to the integral of |grad W|
    // over the kernel ball, not to their net, which nearly cancels inside a solid: that integral is the magnitude.
    const double abs_gradient = simpson(
        [&](double r) { return 4 * kPi * r * r * 945.0 / (32.0 * kPi * std::pow(h, 9)) * r * std::pow(h * h - r * r, 2); },
        0.0, h);
    for (const SolidShare& b : boundary_shares(st, s.colliders, xi, pi.x_m.w, Rule::kShader)) {
      const glm::dvec3 fp = -st.rest_density * p_i / (rho_i * rho_i) * b.push;
      magnitude += 2 * st.rest_density * std::abs(p_i) / (rho_i * rho_i) * abs_gradient;  // the push has G twice
      glm::dvec3 dv = solid_velocity(s.colliders, b.solid) - vi;
      if (!solid_no_slip(st, s.colliders, b.solid)) dv = glm::dot(dv, b.normal) * b.normal;
      const glm::dvec3 fv = 2.0 * st.viscosity / rho_i * b.l * dv;
      // The pressure of the images the continuum stands for, extrapolated hydrostatically (Adami et al. 2012): along
      // the wall it adds -V (g - (g . n) n), V the continuum's volume share (the own image lies level: none).
      const glm::dvec3 lift = -b.v_continuum * (s.gravity - glm::dot(s.gravity, b.normal) * b.normal);
      a += fp + fv + lift;
      magnitude += glm::length(fp) + glm::length(fv) + glm::length(lift);
      const double closing = glm::dot(solid_velocity(s.colliders, b.solid) - vi, b.normal);  // > 0: approaching
      if (mu_damping > 0 && closing > 0) {
        const glm::dvec3 fd = 2.0 * mu_damping / rho_i * b.l * closing * b.normal;
        a += fd;
        magnitude += glm::length(fd);
      }
    }
    a += s.gravity;
    magnitude += glm::length(s.gravity);
    out[i].a = a;
    // Float rounding of x_i - x_j (relative to |x|, not |r|) and of the kernel factors: a few hundred eps of the
    // sum of the term magnitudes covers it; a wrong factor or sign is off by O(magnitude).
    out[i].bound = 2e-5 * magnitude;
    // Where the solids' push is ill-conditioned, that is not enough: at a particle on the eroded surface of a solid
    // (inside it by the erosion depth), a ray's interval end sweeps across the kernel as the particle moves, and the
    // push changed by 3e-4 / m per 1e-8 m (2026-12-07): 3e4 / m^2, against 1 / h^2 = 625 / m^2 at that h. The GPU's
    // distances are float sums of coordinates up to the domain's extent, so the push is only defined to within its
    // change over 64 eps of that extent (the density bound's allowance per term): the reference's own spread there is
    // added, at the particle's pressure.
    auto total_push = [&](const glm::dvec3& x) {
      glm::dvec3 sum(0.0);
      for (const SolidShare& b : boundary_shares(st, s.colliders, x, pi.x_m.w, Rule::kShader)) sum += b.push;
      return sum;
    };
    const double spread = 0.5 * glm::length(total_push(xi + push_delta) - total_push(xi - push_delta));
    out[i].bound += st.rest_density * std::abs(p_i) / (rho_i * rho_i) * spread;
  }
  return out;
}

std::vector<GpuParticle> integrate(const Setup& s, const std::vector<GpuParticle>& particles) {
  std::vector<GpuParticle> out = particles;
  for (GpuParticle& p : out) {
    glm::dvec3 v = vel(p) + s.dt * glm::dvec3(glm::vec3(p.a_p));
    glm::dvec3 x = pos(p) + s.dt * v;
    for (const sph::Region& r : s.settings.regions) {
      if (r.action == sph::RegionAction::kBoundary || !inside_box(x, r.min, r.max)) continue;
      if (r.action == sph::RegionAction::kShift) x += r.vector;
      if (r.action == sph::RegionAction::kSetSpeed) v = r.vector;
      if (r.action == sph::RegionAction::kTeleport) x += r.vector - 0.5 * (r.min + r.max);
    }
    // Walls one after another, each evaluated at the position the previous ones left (as the shader does).
    for (size_t k = 0; k < wall_count(s); ++k) {
      const auto found = wall_at(s, k, x);
      if (!found || found->d >= 0) continue;
      const Wall& w = *found;
      x -= w.d * w.n;
      const glm::dvec3 v_rel = v - w.velocity;
      if (w.kind == Boundary::kSticky) {
        v = w.velocity;
        continue;
      }
      const double vn = glm::dot(v_rel, w.n);
      if (w.kind == Boundary::kSeparate && vn >= 0) continue;
      glm::dvec3 vt = v_rel - vn * w.n;
      const double vt_len = glm::length(vt), press = std::min(vn, 0.0);
      if (vt_len <= -w.friction * press) {
        vt = glm::dvec3(0.0);
      } else if (vt_len > 0) {
        vt += w.friction * press * vt / vt_len;
      }
      v = vt + w.velocity;
    }
    x = glm::clamp(x, s.settings.domain_min, s.settings.domain_max);
    p.x_m = glm::vec4(glm::vec3(x), p.x_m.w);
    p.v_rho = glm::vec4(glm::vec3(v), p.v_rho.w);
  }
  return out;
}

}  // namespace firn::sphref

#include "dem/contact_model.h"

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

namespace firn::dem {
namespace {

using glm::dvec3;

void require(bool ok, const char* field, const char* allowed) {
  if (!ok) throw std::runtime_error(std::string("dem/contact_model: ContactParameters.") + field + " must be " + allowed);
}

/// xi rotated into the plane normal to n, keeping its length (the usual "rotate the history" step of
/// Cundall-Strack springs when the contact frame turns; without it part of xi would push along the normal).
dvec3 rotate_into_plane(const dvec3& xi, const dvec3& n) {
  const double len = glm::length(xi);
  if (len == 0.0) return xi;
  const dvec3 projected = xi - glm::dot(xi, n) * n;
  const double plen = glm::length(projected);
  return plen > 1e-14 * len ? projected * (len / plen) : dvec3(0.0);
}

}  // namespace

void validate_contact_parameters(const ContactParameters& p) {
  require(std::isfinite(p.stiffness) && p.stiffness > 0.0, "stiffness", "finite and > 0 [N/m^3]");
  require(std::isfinite(p.restitution) && p.restitution > 0.0 && p.restitution <= 1.0, "restitution",
          "in (0, 1]");
  require(std::isfinite(p.friction) && p.friction >= 0.0, "friction", "finite and >= 0");
  require(std::isfinite(p.tangential_stiffness_ratio) && p.tangential_stiffness_ratio > 0.0,
          "tangential_stiffness_ratio", "finite and > 0");
}

double damping_ratio(double restitution) {
  const double l = std::log(restitution);
  return -l / std::sqrt(std::numbers::pi * std::numbers::pi + l * l);
}

double normal_damping(const ContactParameters& p, double m, double area) {
  return 2.0 * damping_ratio(p.restitution) * std::sqrt(p.stiffness * area * m);
}

double contact_duration(const ContactParameters& p, double m, double area) {
  const double zeta = damping_ratio(p.restitution);
  return std::numbers::pi / (std::sqrt(p.stiffness * area / m) * std::sqrt(1.0 - zeta * zeta));
}

double effective_mass(double ma, double mb) {
  if (std::isinf(ma)) return mb;
  if (std::isinf(mb)) return ma;
  return ma * mb / (ma + mb);
}

dvec3 point_velocity(const dvec3& v, const dvec3& w, const dvec3& c, const dvec3& p) {
  return v + glm::cross(w, p - c);
}

ContactForce contact_force(const ContactParameters& params, double friction, const ContactState& c,
                           TangentialSpring& spring, double dt) {
  const dvec3& n = c.normal;
  const double zeta = damping_ratio(params.restitution);
  const double k = params.stiffness * c.area;  // secant stiffness of the contact [N/m]
  const double kt = params.tangential_stiffness_ratio * k;
  const double vn = glm::dot(c.relative_velocity, n);  // > 0: separating
  const dvec3 vt = c.relative_velocity - vn * n;
  ContactForce f;
  f.normal = params.stiffness * c.volume - 2.0 * zeta * std::sqrt(k * c.effective_mass) * vn;
  if (params.no_tension && f.normal < 0.0) f.normal = 0.0;

  spring.displacement = rotate_into_plane(spring.displacement, n) + vt * dt;
  const double ct = 2.0 * zeta * std::sqrt(kt * c.effective_mass);
  dvec3 ft = -kt * spring.displacement - ct * vt;
  const double limit = friction * std::max(f.normal, 0.0);
  const double ft_len = glm::length(ft);
  if (ft_len > limit) {
    f.sliding = true;
    ft = ft_len > 0.0 ? ft * (limit / ft_len) : dvec3(0.0);
    spring.displacement = -ft / kt;  // |xi| = mu F_n / k_t
  }
  f.tangential = ft;
  f.on_b = f.normal * n + ft;
  f.elastic_energy = 0.5 * params.stiffness * c.volume * c.volume / c.area +
                     0.5 * kt * glm::dot(spring.displacement, spring.displacement);
  return f;
}

}  // namespace firn::dem

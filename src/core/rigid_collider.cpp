#include "core/rigid_collider.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/bindings.h"
#include "core/finite.h"
#include "core/gpu_collider.h"

namespace firn {
namespace {

/// Terms of the Taylor series of cos and sin(t) / t in t^2: t^30 / 30! < 3e-18 for t <= pi.
constexpr int kSeriesTerms = 15;

}  // namespace

void check_rigid_collider(const RigidCollider& body, size_t index) {
  const std::string who = "rigid body " + std::to_string(index) + ": ";
  if (body.planes.empty()) throw std::invalid_argument(who + "no face planes");
  for (size_t k = 0; k < body.planes.size(); ++k) {
    const glm::dvec4& p = body.planes[k];
    if (!finite(glm::dvec3(p)) || !std::isfinite(p.w) || std::abs(glm::length(glm::dvec3(p)) - 1.0) > 1e-6)
      throw std::invalid_argument(who + "plane " + std::to_string(k) + " needs a finite unit normal and offset");
  }
  const glm::dquat& q = body.orientation;
  if (!finite(body.position) || !finite(body.velocity) || !finite(body.angular_velocity) ||
      !std::isfinite(glm::length(q)) || std::abs(glm::length(q) - 1.0) > 1e-6)
    throw std::invalid_argument(who + "position, velocities and a unit orientation must be finite");
  if (!(body.friction >= 0.0)) throw std::invalid_argument(who + "friction must be >= 0");
  if (!(body.inverse_mass >= 0.0) || !std::isfinite(body.inverse_mass) || !finite(body.acceleration) ||
      !finite(body.inverse_inertia[0]) || !finite(body.inverse_inertia[1]) || !finite(body.inverse_inertia[2]))
    throw std::invalid_argument(who + "inverse mass (>= 0), inverse inertia and acceleration must be finite");
}

double bounding_radius(const std::vector<glm::dvec4>& planes, size_t index) {
  const std::string who = "rigid body " + std::to_string(index) + ": ";
  const size_t n = planes.size();
  auto normal = [&](size_t k) { return glm::dvec3(planes[k]); };
  // Bounded exactly when no direction u has n_k . u <= 0 for every k. Such directions form a polyhedral cone; if it
  // is not {0}, it has an edge (or contains a line) along the crossing n_i x n_j of two planes.
  auto faces_nowhere = [&](const glm::dvec3& u) {
    for (size_t k = 0; k < n; ++k)
      if (glm::dot(normal(k), u) > 1e-12) return false;
    return true;
  };
  bool crossing = false;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) {
      const glm::dvec3 c = glm::cross(normal(i), normal(j));
      if (glm::length(c) < 1e-9) continue;
      crossing = true;
      if (faces_nowhere(c) || faces_nowhere(-c))
        throw std::invalid_argument(who + "the planes do not bound a polyhedron (open along a direction)");
    }
  if (!crossing) throw std::invalid_argument(who + "the planes do not bound a polyhedron (all parallel)");
  double radius = -1.0;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j)
      for (size_t k = j + 1; k < n; ++k) {
        const glm::dmat3 a = glm::transpose(glm::dmat3(normal(i), normal(j), normal(k)));  // rows: the normals
        const double det = glm::determinant(a);
        if (std::abs(det) < 1e-12) continue;
        const glm::dvec3 x = glm::inverse(a) * glm::dvec3(planes[i].w, planes[j].w, planes[k].w);
        bool inside = true;
        for (size_t m = 0; m < n && inside; ++m)
          inside = glm::dot(normal(m), x) <= planes[m].w + 1e-9 * (1.0 + glm::length(x));
        if (inside) radius = std::max(radius, glm::length(x));
      }
  if (radius < 0) throw std::invalid_argument(who + "the planes enclose no point");
  return radius;
}

double inscribed_radius(const std::vector<glm::dvec4>& planes, double bounding_radius) {
  // f(c) = min_i (d_i - n_i . c) is concave; -n of the nearest plane is a supergradient.
  const auto nearest = [&](const glm::dvec3& c, glm::dvec3& away) {
    double f = std::numeric_limits<double>::infinity();
    for (const glm::dvec4& p : planes) {
      const double g = p.w - glm::dot(glm::dvec3(p), c);
      if (g < f) {
        f = g;
        away = -glm::dvec3(p);
      }
    }
    return f;
  };
  glm::dvec3 c(0.0), away(0.0);
  double best = nearest(c, away);
  double step = 0.25 * bounding_radius;
  for (int k = 0; k < 1500; ++k, step *= 0.99) {
    c += step * away;
    best = std::max(best, nearest(c, away));
  }
  return best;
}

std::vector<double> checked_radii(const std::vector<RigidCollider>& bodies, const std::vector<RigidCollider>& before,
                                  const std::vector<double>& radii_before) {
  for (size_t k = 0; k < bodies.size(); ++k) check_rigid_collider(bodies[k], k);
  std::vector<double> radii;
  for (size_t k = 0; k < bodies.size(); ++k)
    radii.push_back(k < before.size() && before[k].planes == bodies[k].planes ? radii_before[k]
                                                                             : bounding_radius(bodies[k].planes, k));
  return radii;
}

double fastest_body_speed(const std::vector<RigidCollider>& bodies, const std::vector<double>& radii) {
  double v = 0.0;
  for (size_t k = 0; k < bodies.size(); ++k)
    v = std::max(v, glm::length(bodies[k].velocity) + glm::length(bodies[k].angular_velocity) * radii[k]);
  return v;
}

std::vector<glm::vec4> plane_floats(const std::vector<RigidCollider>& bodies) {
  std::vector<glm::vec4> planes;
  for (const RigidCollider& b : bodies)
    for (const glm::dvec4& p : b.planes) planes.emplace_back(p);
  return planes;
}

std::vector<GpuRigidBody> to_gpu_bodies(const std::vector<RigidCollider>& bodies,
                                        const std::vector<GpuRigidState>& states, const std::vector<double>& radii) {
  std::vector<GpuRigidBody> gpu;
  uint32_t first = 0;
  for (size_t k = 0; k < bodies.size(); ++k) {
    gpu.push_back(to_gpu_body(bodies[k], states[k], radii[k], first));
    first += static_cast<uint32_t>(bodies[k].planes.size());
  }
  return gpu;
}

void put_rigid_bodies(BinaryWriter& out, const std::vector<RigidCollider>& bodies) {
  out.put(static_cast<std::uint32_t>(bodies.size()));
  std::vector<GpuRigidState> states;
  for (const RigidCollider& b : bodies) {
    out.put_array(b.planes);
    out.put(b.friction, static_cast<std::uint32_t>(b.boundary));
    states.push_back(to_gpu_state(b));
  }
  out.put_array(states);
}

std::vector<RigidCollider> get_rigid_bodies(BinaryReader& in) {
  const auto count = in.get<std::uint32_t>();
  std::vector<RigidCollider> bodies(count);
  for (RigidCollider& b : bodies) {
    b.planes = in.get_array<glm::dvec4>();
    std::uint32_t boundary = 0;
    in.read(b.friction, boundary);
    if (boundary > static_cast<std::uint32_t>(Boundary::kSeparate)) in.fail("a rigid body's boundary code is invalid");
    b.boundary = static_cast<Boundary>(boundary);
  }
  const auto states = in.get_array<GpuRigidState>();
  if (states.size() != count) in.fail("the rigid body states do not match the bodies");
  for (size_t k = 0; k < count; ++k) {
    bodies[k] = posed(bodies[k], states[k]);
    bodies[k].inverse_mass = states[k].start_velocity.w;
    bodies[k].acceleration = glm::dvec3(states[k].acceleration);
    const glm::dvec4 a = states[k].inverse_inertia[0], b = states[k].inverse_inertia[1];
    bodies[k].inverse_inertia = glm::dmat3(a.x, a.w, b.x, a.w, a.y, b.y, b.x, b.y, a.z);
  }
  return bodies;
}

GpuRigidState to_gpu_state(const RigidCollider& body) {
  const glm::dquat& q = body.orientation;
  const glm::dmat3& i = body.inverse_inertia;  // glm: i[column][row]
  return {glm::dvec4(body.position, 0.0),
          glm::dvec4(q.x, q.y, q.z, q.w),
          glm::dvec4(body.velocity, 0.0),
          glm::dvec4(body.angular_velocity, 0.0),
          glm::dvec4(body.velocity, body.inverse_mass),
          glm::dvec4(body.angular_velocity, 0.0),
          glm::dvec4(body.acceleration, 0.0),
          {glm::dvec4(i[0][0], i[1][1], i[2][2], i[1][0]), glm::dvec4(i[2][0], i[2][1], 0.0, 0.0)}};
}

void predict_rigid_velocity(GpuRigidState& s, const RigidImpulse& since_set) {
  if (!(s.start_velocity.w > 0.0)) return;
  const glm::dvec3 j = since_set.linear, l = since_set.angular;
  const glm::dvec3 v = glm::dvec3(s.start_velocity) + s.start_velocity.w * j +
                       s.start_angular_velocity.w * glm::dvec3(s.acceleration);
  const glm::dvec4 a = s.inverse_inertia[0], b = s.inverse_inertia[1];
  const glm::dvec3 w = glm::dvec3(s.start_angular_velocity) + glm::dvec3(a.x * l.x + a.w * l.y + b.x * l.z,
                                                                        a.w * l.x + a.y * l.y + b.y * l.z,
                                                                        b.x * l.x + b.y * l.y + a.z * l.z);
  s.velocity = glm::dvec4(v, s.velocity.w);
  s.angular_velocity = glm::dvec4(w, s.angular_velocity.w);
}

GpuRigidBody to_gpu_body(const RigidCollider& body, const GpuRigidState& state, double radius, uint32_t first_plane) {
  // The rotation matrix of the unit quaternion, in the operation order of step.comp's rotation_columns.
  const double x = state.orientation.x, y = state.orientation.y, z = state.orientation.z, w = state.orientation.w;
  GpuRigidBody g{};
  // The radius is padded and rounded up, so that the float test never rejects a node the polyhedron holds.
  g.position = glm::vec4(glm::vec3(glm::dvec3(state.position)), std::nextafter(float(radius * (1.0 + 1e-5)), 1e30f));
  g.rotation[0] = glm::vec4(float(1.0 - 2.0 * (y * y + z * z)), float(2.0 * (x * y + w * z)),
                            float(2.0 * (x * z - w * y)), 0.0f);
  g.rotation[1] = glm::vec4(float(2.0 * (x * y - w * z)), float(1.0 - 2.0 * (x * x + z * z)),
                            float(2.0 * (y * z + w * x)), 0.0f);
  g.rotation[2] = glm::vec4(float(2.0 * (x * z + w * y)), float(2.0 * (y * z - w * x)),
                            float(1.0 - 2.0 * (x * x + y * y)), 0.0f);
  g.velocity_friction = glm::vec4(glm::vec3(glm::dvec3(state.velocity)), float(body.friction));
  g.angular_velocity = glm::vec4(glm::vec3(glm::dvec3(state.angular_velocity)), 0.0f);
  g.faces = glm::uvec4(first_plane, static_cast<uint32_t>(body.planes.size()), boundary_code(body.boundary), 0u);
  return g;
}

RigidCollider posed(RigidCollider body, const GpuRigidState& state) {
  body.position = glm::dvec3(state.position);
  body.orientation = glm::dquat(state.orientation.w, state.orientation.x, state.orientation.y, state.orientation.z);
  body.velocity = glm::dvec3(state.velocity);
  body.angular_velocity = glm::dvec3(state.angular_velocity);
  return body;
}

void advance_rigid_state(GpuRigidState& s, double dt) {
  s.position = glm::dvec4(glm::dvec3(s.position) + dt * glm::dvec3(s.velocity), 0.0);
  // Operation by operation as shaders/common/rigid_body.glsl move_rigid (no glm::dot or glm::cross: the shader
  // writes them out, and x86-64's baseline has no fused multiply-add for the compiler to contract into).
  const glm::dvec3 half = 0.5 * dt * glm::dvec3(s.angular_velocity);  // rotation vector / 2
  const double t2 = half.x * half.x + half.y * half.y + half.z * half.z;
  // Horner: cos t = sum (-t^2)^k / (2k)!, sin t / t = sum (-t^2)^k / (2k + 1)!, from the last term down.
  double c = 1.0, sinc = 1.0;
  for (int k = kSeriesTerms; k >= 1; --k) {
    c = 1.0 - t2 / double((2 * k - 1) * (2 * k)) * c;
    sinc = 1.0 - t2 / double((2 * k) * (2 * k + 1)) * sinc;
  }
  const glm::dvec3 dv = sinc * half;  // vector part of q(dt); scalar part c
  const glm::dvec3 qv(s.orientation);
  const double qw = s.orientation.w;
  const glm::dvec3 dv_x_qv(dv.y * qv.z - qv.y * dv.z, dv.z * qv.x - qv.z * dv.x, dv.x * qv.y - qv.x * dv.y);
  const double dv_dot_qv = dv.x * qv.x + dv.y * qv.y + dv.z * qv.z;
  const glm::dvec4 r(c * qv + qw * dv + dv_x_qv, c * qw - dv_dot_qv);
  // |r|^2 = 1 to rounding: two Newton steps for 1 / |r| from 1 (error of order (|r|^2 - 1)^4), no sqrt or division;
  // the square root only past the series' range, as the shader.
  const double n2 = (r.x * r.x + r.y * r.y) + (r.z * r.z + r.w * r.w);
  double inv = 1.5 - 0.5 * n2;
  inv = inv * (1.5 - 0.5 * n2 * inv * inv);
  if (std::abs(n2 - 1.0) > 1e-6) inv = 1.0 / std::sqrt(n2);
  s.orientation = r * inv;
  s.start_angular_velocity.w += dt;
}

std::vector<RigidImpulse> decode_rigid_impulses(const std::vector<uint32_t>& words) {
  std::vector<RigidImpulse> out(words.size() / 12);
  for (size_t b = 0; b < out.size(); ++b)
    for (int c = 0; c < 6; ++c) {
      const size_t i = 12 * b + 2 * size_t(c);
      const auto fixed = static_cast<int64_t>((uint64_t(words[i + 1]) << 32) | words[i]);
      (c < 3 ? out[b].linear : out[b].angular)[c % 3] = double(fixed) / RIGID_IMPULSE_SCALE;
    }
  return out;
}

}  // namespace firn

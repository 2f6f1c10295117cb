// CPU reference of the rigid bodies in the grid update (cpu_reference.h collide_rigid), written from the model of
// issue 14 point 2: a convex polyhedron as a moving collider, the node's momentum change as the body's impulse.
#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/gtc/quaternion.hpp>

#include "cpu_reference.h"

namespace firn::mpm::ref {
namespace {

double f32(double x) { return static_cast<double>(static_cast<float>(x)); }
dvec3 f32(const dvec3& v) { return {f32(v.x), f32(v.y), f32(v.z)}; }

}  // namespace

RigidBody rigid_as_uploaded(const mpm::RigidCollider& body) {
  RigidBody r;
  r.position = f32(body.position);
  const dmat3 rot = glm::mat3_cast(body.orientation);
  for (int c = 0; c < 3; ++c) r.rotation[c] = f32(rot[c]);
  for (const glm::dvec4& p : body.planes) r.planes.emplace_back(f32(dvec3(p)), f32(p.w));
  r.velocity = f32(body.velocity);
  r.angular_velocity = f32(body.angular_velocity);
  r.friction = f32(body.friction);
  r.boundary = body.boundary;
  return r;
}

dvec3 collide_rigid(const Setup& s, const dvec3& x, double m, dvec3 v, double& tol, bool& ambiguous, double margin,
                    std::vector<RigidSum>* sums) {
  for (size_t b = 0; b < s.rigid.size(); ++b) {
    const RigidBody& body = s.rigid[b];
    const dvec3 r = x - body.position;
    const dvec3 r_body = glm::transpose(body.rotation) * r;
    double best = -std::numeric_limits<double>::infinity(), second = best;
    size_t face = 0;
    for (size_t k = 0; k < body.planes.size(); ++k) {
      const double d = glm::dot(dvec3(body.planes[k]), r_body) - body.planes[k].w;
      if (d > best) {
        second = best;
        best = d;
        face = k;
      } else {
        second = std::max(second, d);
      }
    }
    // Float decides contact and the face to within a few eps of |x| + |p| (the body-frame coordinates); the
    // margin (much larger) marks nodes where float and double may disagree.
    // There the GPU may apply another face's response or none: either changes v by at most 2 (1 + mu) |v - v_body|
    // (removing the normal part, then friction, each at most |v - v_body|), so the two outcomes differ by twice that.
    const dvec3 v_body = body.velocity + glm::cross(body.angular_velocity, r);
    if (std::abs(best) < margin || (best <= 0 && best - second < margin)) {
      ambiguous = true;
      if (sums) {
        const double either = 4.0 * (1.0 + body.friction) * m * glm::length(v - v_body);
        (*sums)[b].linear_tol += either;
        (*sums)[b].angular_tol += glm::length(r) * either;
      }
    }
    if (best > 0) continue;
    const dvec3 n = body.rotation * dvec3(body.planes[face]);
    Collider c;
    c.velocity = v_body;
    c.friction = body.friction;
    c.boundary = body.boundary;
    const dvec3 before = v;
    v = respond(c, n, v);
    // Float error of the response, as collide's: Lipschitz 1 + mu (times sqrt(3) from components to the Euclidean
    // norm) on the incoming error, plus its own: 8 eps of the speeds, the normal R n (the rounded rotation and a
    // 3-term product: 6 eps), and the body velocity v + omega x r, whose r = x - p errs by 2 eps (|x| + |p|) and
    // whose cross product and sum cost 4 eps of |omega| |r| + |v|.
    const double mu = body.friction;
    const double w = glm::length(body.angular_velocity);
    const double vb_err = 2.0 * kEps * w * (glm::length(x) + glm::length(body.position)) +
                          4.0 * kEps * (w * glm::length(r) + glm::length(body.velocity));
    const double tol_in = tol;
    tol = (1.0 + mu) * std::sqrt(3.0) * (tol + vb_err) +
          (1.0 + mu) * (8.0 * kEps + 3.0 * 6.0 * kEps) * (glm::length(before) + glm::length(v_body));
    if (!sums) continue;
    // The impulse m (before - after): the GPU's before and after err by tol_in and tol, its mass by 2 eps, the
    // product and difference by 2 eps; one fixed-point rounding (half a unit of 2^-32 N s) per component. The
    // moment r x j: |r| times j's error, |j| times r's (2 eps (|x| + |p|)), 3 eps of |r| |j| for the product.
    const dvec3 j = m * (before - v);
    const double j_err = m * (tol_in + tol) + 4.0 * kEps * m * glm::length(before - v) + 0.5 / 4294967296.0;
    RigidSum& sum = (*sums)[b];
    sum.linear += j;
    sum.angular += glm::cross(r, j);
    sum.linear_tol += j_err;
    sum.angular_tol += 2.0 * glm::length(r) * j_err +
                       glm::length(j) * (4.0 * kEps * (glm::length(x) + glm::length(body.position)) +
                                         6.0 * kEps * glm::length(r)) +
                       0.5 / 4294967296.0;
  }
  return v;
}

}  // namespace firn::mpm::ref

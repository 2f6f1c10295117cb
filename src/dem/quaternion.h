#pragma once
/// Quaternion helpers for rigid-body orientation (Schinner 1995, App. A; notes docs: dem-polyhedra.md §2.5-2.9).
///
/// Conventions: a quaternion q = [w, (x, y, z)] is stored as glm::dquat, built with glm::dquat(w, x, y, z) (scalar
/// first, as the thesis writes it; glm's memory order does not matter here). glm's operator* is the Hamilton product
/// [w, v][w', v'] = [ww' - v.v', wv' + w'v + v x v'], i.e. eq. A.4 with the cross term the OCR dropped. A unit q
/// maps body to world: x_world = q [0, x_body] q* (A.11), and q1 q2 applies q2 first (A.18, corrected).
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace firn::dem {

/// The pure quaternion [0, v] of a vector v (A.2). Units are those of v.
glm::dquat pure_quat(const glm::dvec3& v);

/// The vector part (x, y, z) of q. Units are those of q.
glm::dvec3 vector_part(const glm::dquat& q);

/// Euclidean 4-dot product w w' + x x' + y y' + z z' (the norm N(q) of A.8 is quat_dot(q, q)).
double quat_dot(const glm::dquat& a, const glm::dquat& b);

/// Unit quaternion [cos(angle/2), sin(angle/2) axis] rotating by `angle` [rad] about `axis` (any non-zero length;
/// it is normalised). Source: A.13-A.17, eq. 2.15. Throws std::runtime_error if axis is zero or not finite.
glm::dquat quat_from_axis_angle(const glm::dvec3& axis, double angle);

/// Rotation matrix R(q) of eq. A.19 for a unit quaternion (body -> world: x_world = R x_body). q is not
/// normalised here: a non-unit q gives a non-orthogonal matrix, so callers renormalise first.
glm::dmat3 rotation_matrix(const glm::dquat& q);

/// Unit quaternion of a proper rotation matrix by Shepperd's method: the largest of 4w^2, 4x^2, 4y^2, 4z^2 picks
/// the pivot, which fixes the ill-conditioning near a half turn. Replaces the printed A.20, which is wrong (notes
/// §2.7). The sign is chosen so that w >= 0. R must be orthonormal with det +1 (not checked).
glm::dquat quat_from_rotation_matrix(const glm::dmat3& r);

/// q / |q|. Renormalisation is a project decision (the thesis is silent, notes §2.9). Throws std::runtime_error
/// if |q| is zero or not finite.
glm::dquat normalized_quat(const glm::dquat& q);

}  // namespace firn::dem

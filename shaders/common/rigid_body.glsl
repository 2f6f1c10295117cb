// Rigid bodies as the solvers' passes see them (C++ mirrors GpuRigidBody, GpuRigidState in src/core/gpu_rigid_body.h;
// plain data in src/core/rigid_collider.h): a convex polyhedron given by its face planes in the body frame, its pose
// and velocities. Shared by the MPM grid update (shaders/mpm/rigid.glsl) and the SPH boundary
// (shaders/sph/boundary.glsl), the pose motion by their pose passes (shaders/mpm/step.comp, shaders/sph/bodies.comp).

// A rigid body: float pose for the passes, faces in the plane buffer.
struct RigidBody {
  vec4 position;           // centre of mass [m], w = bounding radius [m]
  vec4 rotation[3];        // columns of R, body -> world
  vec4 velocity_friction;  // velocity [m/s], w = Coulomb friction mu
  vec4 angular_velocity;   // [rad/s], world frame
  uvec4 faces;             // first plane, plane count, BOUNDARY_* code
};

// A rigid body's motion state in double (GpuRigidState), advanced by the pose passes.
struct RigidState {
  dvec4 position;                // [m]
  dvec4 orientation;             // unit quaternion (x, y, z, w), body -> world
  dvec4 velocity;                // [m/s]
  dvec4 angular_velocity;        // [rad/s]
  dvec4 start_velocity;          // as set [m/s]; w = inverse mass [1/kg] (0: not moved by impulses)
  dvec4 start_angular_velocity;  // as set [rad/s]; w = time since the set [s]
  dvec4 acceleration;            // the body's own (gravity) [m/s^2]
  dvec4 inverse_inertia[2];      // world, at the set [1/(kg m^2)]: (xx, yy, zz, xy), (xz, yz, -, -)
};

// Terms of the Taylor series of cos t and sin(t) / t (src/core/rigid_collider.cpp kSeriesTerms).
const int RIGID_SERIES_TERMS = 15;

// Moves a body by dt in double, the arithmetic of firn::advance_rigid_state (src/core/rigid_collider.cpp), operation
// by operation so that both give the same bits: p += dt v; q = (cos t, sin(t) / t * dt omega / 2) q with
// t = |omega| dt / 2, renormalised; then writes the float pose the passes read (the rotation matrix of q in the
// order of firn::to_gpu_body). Dot and cross products are written out: `precise` forbids fused multiply-adds in
// expressions but not inside built-in functions, and a driver may sum a dot product in another order.
void move_rigid(inout RigidState s, inout RigidBody body, double dt) {
  precise dvec3 p = s.position.xyz + dt * s.velocity.xyz;
  precise dvec3 half_angle = 0.5LF * dt * s.angular_velocity.xyz;
  precise double t2 = half_angle.x * half_angle.x + half_angle.y * half_angle.y + half_angle.z * half_angle.z;
  precise double c = 1.0LF, sinc = 1.0LF;
  for (int i = RIGID_SERIES_TERMS; i >= 1; --i) {
    c = 1.0LF - t2 / double((2 * i - 1) * (2 * i)) * c;
    sinc = 1.0LF - t2 / double((2 * i) * (2 * i + 1)) * sinc;
  }
  precise dvec3 dv = sinc * half_angle;
  precise dvec3 qv = s.orientation.xyz;
  precise double qw = s.orientation.w;
  precise dvec3 dv_x_qv = dvec3(dv.y * qv.z - qv.y * dv.z, dv.z * qv.x - qv.z * dv.x, dv.x * qv.y - qv.x * dv.y);
  precise double dv_dot_qv = dv.x * qv.x + dv.y * qv.y + dv.z * qv.z;
  precise dvec4 q = dvec4(c * qv + qw * dv + dv_x_qv, c * qw - dv_dot_qv);
  // |q|^2 = 1 to rounding (both factors are unit quaternions): two Newton steps for 1 / |q| from 1 leave an error of
  // order (|q|^2 - 1)^4 and need no square root or division. Past the series' range (t > pi: more than half a turn
  // in one step, which the step's bound on the bodies' fastest point excludes for their set velocities) |q|^2 may be
  // far from 1, and the square root keeps the pose a rotation.
  precise double n2 = (q.x * q.x + q.y * q.y) + (q.z * q.z + q.w * q.w);
  precise double inv = 1.5LF - 0.5LF * n2;
  inv = inv * (1.5LF - 0.5LF * n2 * inv * inv);
  if (abs(n2 - 1.0LF) > 1e-6LF) inv = 1.0LF / sqrt(n2);
  q = q * inv;
  s.position.xyz = p;
  s.orientation = q;
  s.start_angular_velocity.w = s.start_angular_velocity.w + dt;
  precise double x = q.x, y = q.y, z = q.z, w = q.w;
  body.position.xyz = vec3(p);
  body.rotation[0].xyz =
      vec3(dvec3(1.0LF - 2.0LF * (y * y + z * z), 2.0LF * (x * y + w * z), 2.0LF * (x * z - w * y)));
  body.rotation[1].xyz =
      vec3(dvec3(2.0LF * (x * y - w * z), 1.0LF - 2.0LF * (x * x + z * z), 2.0LF * (y * z + w * x)));
  body.rotation[2].xyz =
      vec3(dvec3(2.0LF * (x * z + w * y), 2.0LF * (y * z - w * x), 1.0LF - 2.0LF * (x * x + y * y)));
}

// The velocities of a body with inverse mass > 0 before a substep (firn::predict_rigid_velocity, in its operation
// order): v = v_set + J / m + t a, omega = omega_set + I^-1 L, with J, L the impulse sums since the set [N s, N m s]
// and t the time since the set; also written to the float copies the passes read.
void predict_rigid_velocity(inout RigidState s, inout RigidBody body, dvec3 impulse, dvec3 angular_impulse) {
  if (s.start_velocity.w <= 0.0LF) return;
  precise dvec3 v =
      s.start_velocity.xyz + s.start_velocity.w * impulse + s.start_angular_velocity.w * s.acceleration.xyz;
  dvec4 a = s.inverse_inertia[0], b = s.inverse_inertia[1];
  dvec3 l = angular_impulse;
  precise dvec3 w = s.start_angular_velocity.xyz + dvec3(a.x * l.x + a.w * l.y + b.x * l.z,
                                                         a.w * l.x + a.y * l.y + b.y * l.z,
                                                         b.x * l.x + b.y * l.y + a.z * l.z);
  s.velocity.xyz = v;
  s.angular_velocity.xyz = w;
  body.velocity_friction.xyz = vec3(v);
  body.angular_velocity.xyz = vec3(w);
}

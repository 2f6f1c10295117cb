// Rigid bodies on the MPM grid (issue 14 point 2; src/mpm/rigid_colliders.h, shaders/mpm/rigid.glsl): the grid
// update with bodies against the CPU double-precision reference (cpu_reference_rigid.cpp), the exchange of momentum
// between snow and a body, the poses the step pass advances, and that a body away from the snow changes nothing.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>

#include <glm/gtc/quaternion.hpp>

#include "cpu_reference.h"
#include "cpu_reference_apic.h"
#include "mpm/seeding.h"
#include "mpm/solver.h"
#include "mpm/state.h"
#include "mpm_test_util.h"
#include "support/gl_context.h"
#include "support/state_bytes.h"

using namespace firn;
using namespace firn::mpm;
using firn::mpmtest::Deviation;
using firn::mpmtest::expect_within;
using firn::test::same_bytes;
using firn::test::saved_state;
using glm::dvec3;

namespace {

/// A box of half extents `half` [m] as face planes.
std::vector<glm::dvec4> box_planes(const dvec3& half) {
  std::vector<glm::dvec4> p;
  for (int a = 0; a < 3; ++a)
    for (double s : {-1.0, 1.0}) {
      dvec3 n(0.0);
      n[a] = s;
      p.emplace_back(n, half[a]);
    }
  return p;
}

/// A random convex polyhedron around the body origin: `faces` random unit normals at distances in [0.8, 1.2] r
/// (bounded: with the six axis directions added, every direction meets a face).
std::vector<glm::dvec4> random_polyhedron(std::mt19937_64& rng, double r, int faces) {
  std::vector<glm::dvec4> p = box_planes(dvec3(1.3 * r));
  for (int k = 0; k < faces; ++k) p.emplace_back(mpmtest::random_direction(rng), mpmtest::uniform(rng, 0.8, 1.2) * r);
  return p;
}

RigidCollider random_body(std::mt19937_64& rng, const dvec3& centre, double size, Boundary boundary, bool box) {
  RigidCollider b;
  b.planes = box ? box_planes(dvec3(mpmtest::uniform(rng, 0.6, 1.0), mpmtest::uniform(rng, 0.6, 1.0),
                                    mpmtest::uniform(rng, 0.6, 1.0)) *
                              size)
                 : random_polyhedron(rng, size, 11);
  b.position = centre;
  b.orientation = mpmtest::random_rotation(rng);
  b.velocity = mpmtest::uniform(rng, 0.0, 2.0) * mpmtest::random_direction(rng);
  b.angular_velocity = mpmtest::uniform(rng, 0.0, 6.0) * mpmtest::random_direction(rng);
  b.friction = mpmtest::uniform(rng, 0.0, 1.0);
  b.boundary = boundary;
  return b;
}

/// A 0.08 m snowball (Young's modulus 1.4e5 Pa) at `centre` moving at `velocity` in a 0.8 x 0.6 x 0.6 m grid of
/// 0.025 m spacing.
MpmSettings snowball_scene(std::mt19937_64& rng, Transfer transfer, const dvec3& centre, const dvec3& velocity) {
  MpmSettings s;
  s.grid = {{0, 0, 0}, {0.8, 0.6, 0.6}, 0.025};
  s.transfer = transfer;
  Material m;
  m.youngs_modulus = 1.4e5;
  s.materials.push_back(m);
  Body ball;
  ball.center = centre;
  ball.radius = 0.08;
  ball.velocity = velocity;
  ball.particles_per_cell = 8;
  ball.seed = rng();
  s.bodies.push_back(ball);
  return s;
}

/// One grid update with rigid bodies on a random scene (mpmtest::random_scene), the reference's result, and the
/// deviations of every node velocity (ambiguous nodes skipped) and every body's impulse sums from it.
struct RigidGridRun {
  ref::Setup setup;
  std::vector<GpuGridNode> grid;
  std::vector<ref::RigidSum> sums;
  std::vector<RigidImpulse> after;  ///< the sums read again (reset by the first read)
  Deviation v_new{"v_new with bodies [m/s]"}, linear{"impulse on a body [N s]"}, angular{"angular impulse [N m s]"};
  size_t ambiguous = 0;
};

/// `make_bodies(rng, lo, hi, h)` gives the bodies from the interior between the walls [lo, hi] and the spacing h.
template <class MakeBodies>
RigidGridRun run_rigid_grid_update(int particles, const glm::ivec3& dims, MakeBodies make_bodies) {
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  const mpmtest::Scene sc = mpmtest::random_scene(rng, particles, dims);
  Solver solver(sc.settings, sc.colliders, sc.gravity, sc.particles);
  solver.upload_particles(sc.particles);
  const double dt = solver.step_limits().dt;
  solver.set_time_step(dt);
  const Grid& g = sc.settings.grid;
  const std::vector<RigidCollider> bodies = make_bodies(rng, mpmtest::wall_lo(g), mpmtest::wall_hi(g), g.spacing);
  solver.set_rigid_colliders(bodies);
  RigidGridRun r;
  r.setup = ref::make_setup(sc.settings, sc.colliders, sc.gravity, solver.scales(), dt);
  for (const RigidCollider& b : bodies) r.setup.rigid.push_back(ref::rigid_as_uploaded(b));
  solver.clear_grid();
  solver.particle_to_grid();
  r.grid = solver.download_grid();
  solver.grid_update();
  const auto got = solver.download_grid_velocities();
  const auto impulses = solver.take_rigid_impulses();
  r.after = solver.take_rigid_impulses();
  EXPECT_NO_THROW(solver.check_status());
  const auto want = ref::grid_update(r.setup, r.grid, &r.sums);
  for (size_t k = 0; k < got.size(); ++k) {
    if (r.grid[k].mass_momentum.x <= 0) continue;
    if (want[k].ambiguous) {
      ++r.ambiguous;
      continue;
    }
    for (int d = 0; d < 3; ++d) r.v_new.add(got[k].v_new[d], want[k].v_new[d], want[k].tol_new);
  }
  EXPECT_EQ(impulses.size(), bodies.size());
  for (size_t b = 0; b < std::min(impulses.size(), bodies.size()); ++b)
    for (int d = 0; d < 3; ++d) {
      r.linear.add(impulses[b].linear[d], r.sums[b].linear[d], r.sums[b].linear_tol);
      r.angular.add(impulses[b].angular[d], r.sums[b].angular[d], r.sums[b].angular_tol);
    }
  return r;
}

}  // namespace

// Random grid velocities and masses (random particles of the random scene, particle-to-grid) on an awkward grid,
// three bodies (a rotated box and two random polyhedra), one per boundary kind: every node velocity and each body's
// impulse sums against the double reference, within bounds derived from float32 and the fixed-point unit.
TEST(MpmRigid, GridUpdateWithBodiesMatchesReference) {
  auto make = [](std::mt19937_64& rng, dvec3 lo, dvec3 hi, double) {
    const Boundary kinds[] = {Boundary::kSticky, Boundary::kSlip, Boundary::kSeparate};
    std::vector<RigidCollider> bodies;
    for (int k = 0; k < 3; ++k) {
      // Apart along x, so that no node is in two bodies.
      const dvec3 centre(lo.x + (k + 0.5) / 3.0 * (hi.x - lo.x),
                         mpmtest::uniform(rng, lo.y, hi.y) * 0.5 + 0.25 * (lo.y + hi.y), 0.5 * (lo.z + hi.z));
      bodies.push_back(random_body(rng, centre, 0.2 * (hi.x - lo.x), kinds[k], k == 0));
    }
    return bodies;
  };
  const RigidGridRun r = run_rigid_grid_update(2311, {15, 13, 17}, make);
  std::vector<int> inside(3, 0);
  for (size_t k = 0; k < r.grid.size(); ++k) {
    if (r.grid[k].mass_momentum.x <= 0) continue;
    const dvec3 x = r.setup.node_position(r.setup.node_coords(static_cast<int>(k)));
    for (size_t b = 0; b < 3; ++b) {
      const ref::RigidBody& rb = r.setup.rigid[b];
      const dvec3 r_body = glm::transpose(rb.rotation) * (x - rb.position);
      bool in = true;
      for (const glm::dvec4& p : rb.planes) in = in && glm::dot(dvec3(p), r_body) <= p.w;
      inside[b] += in;
    }
  }
  std::printf("  massive nodes inside the bodies: %d %d %d; %zu ambiguous nodes skipped\n", inside[0], inside[1],
              inside[2], r.ambiguous);
  for (int n : inside) EXPECT_GT(n, 20) << "a body touches too few nodes to test anything";
  expect_within(r.v_new);
  expect_within(r.linear);
  expect_within(r.angular);
  // The sums were reset by the read.
  for (const RigidImpulse& i : r.after) {
    EXPECT_EQ(i.linear, dvec3(0.0));
    EXPECT_EQ(i.angular, dvec3(0.0));
  }
}

// More bodies than one round of the grid update's per-group culling (RIGID_ROUND = 2048 in shaders/mpm/rigid.glsl),
// small and scattered, some overlapping: node velocities and every body's impulse against the reference.
TEST(MpmRigid, ManyBodiesMatchReference) {
  constexpr size_t kBodies = 2311, kRound = 2048;
  auto make = [](std::mt19937_64& rng, dvec3 lo, dvec3 hi, double h) {
    const Boundary kinds[] = {Boundary::kSticky, Boundary::kSlip, Boundary::kSeparate};
    std::vector<RigidCollider> bodies;
    for (size_t k = 0; k < kBodies; ++k) {
      const dvec3 centre(mpmtest::uniform(rng, lo.x, hi.x), mpmtest::uniform(rng, lo.y, hi.y),
                         mpmtest::uniform(rng, lo.z, hi.z));
      bodies.push_back(random_body(rng, centre, mpmtest::uniform(rng, 0.3, 1.0) * h, kinds[k % 3], k % 2 == 0));
    }
    return bodies;
  };
  const RigidGridRun r = run_rigid_grid_update(1733, {14, 11, 13}, make);
  size_t touched = 0, touched_late = 0;
  for (size_t b = 0; b < r.sums.size(); ++b) {
    const bool hit = glm::length(r.sums[b].linear) > 0;
    touched += hit;
    touched_late += hit && b >= kRound;
  }
  std::printf("  %zu bodies, %zu touch snow (%zu beyond the first culling round); %zu ambiguous nodes skipped\n",
              kBodies, touched, touched_late, r.ambiguous);
  EXPECT_GT(touched_late, 20u);
  expect_within(r.v_new);
  expect_within(r.linear);
  expect_within(r.angular);
}

// A body that contains no snow node changes nothing: the grid velocities are bit-identical to a solver without
// bodies, and its impulse is exactly zero.
// The CFL step follows the fastest point of a rigid body as it follows a collider (MpmColliders.TheStepFollows
// TheFastestCollider): dt <= cfl h / (c + max(|v_p|max, |v| + |w| r)), r the body's bounding radius. Before, a
// rock at 300 m/s crossed a snow slab between two substeps of the snow's own step (sweep, 2026-11-29). A body far
// from the snow, moving and spinning at awkward rates; then set at rest, the step returns to the snow's own.
TEST(MpmRigid, TheStepFollowsTheFastestPointOfABody) {
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  const MpmSettings s = snowball_scene(rng, Transfer::kFlip, {0.2, 0.3, 0.3}, dvec3(0.0));
  Solver solver(s, {}, dvec3(0.0), seed_bodies(s));
  const double alone = solver.step_limits().dt;
  RigidCollider body = random_body(rng, {0.65, 0.45, 0.45}, 0.05, Boundary::kSeparate, true);
  body.velocity = mpmtest::uniform(rng, 150.0, 250.0) * mpmtest::random_direction(rng);
  body.angular_velocity = mpmtest::uniform(rng, 500.0, 900.0) * mpmtest::random_direction(rng);
  const double radius = bounding_radius(body.planes, 0);
  const double fastest = glm::length(body.velocity) + glm::length(body.angular_velocity) * radius;
  solver.set_rigid_colliders({body});
  solver.advance(0.002);  // the step pass (GPU) chooses the step; the CPU's limits follow at the read-back
  const StepLimits l = solver.step_limits();
  const double want = std::min(s.dt_max, s.cfl * s.grid.spacing / (l.wave_speed + fastest));
  std::printf("body's fastest point %.1f m/s (radius %.4f m): dt %.4e s, alone %.4e s\n", fastest, radius, l.dt,
              alone);
  EXPECT_DOUBLE_EQ(l.dt, want);
  EXPECT_EQ(solver.substeps(), static_cast<uint64_t>(std::ceil(0.002 / want - 1e-9)));
  body.velocity = dvec3(0.0);
  body.angular_velocity = dvec3(0.0);
  solver.set_rigid_colliders({body});
  solver.advance(0.002);
  EXPECT_EQ(solver.step_limits().dt, alone);  // the snow is at rest in zero gravity
}

TEST(MpmRigid, BodyAwayFromTheSnowChangesNothing) {
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  mpmtest::Scene sc = mpmtest::random_scene(rng, 613, {11, 13, 9});
  // Keep the particles in the lower half, the body in the upper corner.
  const Grid& g = sc.settings.grid;
  const dvec3 lo = mpmtest::wall_lo(g), hi = mpmtest::wall_hi(g);
  for (GpuParticle& p : sc.particles) p.x_m.y = float(lo.y + 0.4 * (p.x_m.y - lo.y));
  std::vector<std::vector<GpuGridVelocity>> out;
  for (bool with_body : {false, true}) {
    Solver solver(sc.settings, sc.colliders, sc.gravity, sc.particles);
    if (with_body) {
      RigidCollider b = random_body(rng, hi - 0.1 * (hi - lo), 0.05 * (hi.x - lo.x), Boundary::kSticky, true);
      solver.set_rigid_colliders({b});
    }
    for (int s = 0; s < 3; ++s) solver.substep(0.5 * solver.step_limits().dt);
    solver.clear_grid();
    solver.particle_to_grid();
    solver.grid_update();
    out.push_back(solver.download_grid_velocities());
    if (with_body) {
      const auto i = solver.take_rigid_impulses();
      ASSERT_EQ(i.size(), 1u);
      EXPECT_EQ(i[0].linear, dvec3(0.0));
      EXPECT_EQ(i[0].angular, dvec3(0.0));
    }
  }
  ASSERT_EQ(out[0].size(), out[1].size());
  EXPECT_EQ(std::memcmp(out[0].data(), out[1].data(), out[0].size() * sizeof(GpuGridVelocity)), 0);
}

// Zero gravity, no colliders, a snowball thrown at a box held at a fixed velocity (spinning): the only external
// force on the snow is the body's, so over the advance the snow's momentum change equals minus the impulse summed
// on the body, to 1e-3 of it (the residue: fixed-point rounding of the grid sums and float32 transfers).
TEST(MpmRigid, SnowballOnHeldBodyExchangesMomentum) {
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  const MpmSettings s = snowball_scene(rng, Transfer::kFlip, {0.25, 0.3, 0.3}, {3.0, 0.2, 0.0});
  Solver solver(s, {}, dvec3(0.0), seed_bodies(s));
  RigidCollider box;
  box.planes = box_planes({0.06, 0.1, 0.1});
  box.position = {0.45, 0.3, 0.31};
  box.orientation = glm::angleAxis(0.4, glm::normalize(dvec3(0.2, 1.0, 0.3)));
  box.velocity = {-0.5, 0.0, 0.0};
  box.angular_velocity = {0.0, 2.0, 1.0};
  box.friction = 0.3;
  box.boundary = Boundary::kSeparate;
  solver.set_rigid_colliders({box});
  auto momentum = [&] {
    dvec3 p(0.0);
    for (const GpuParticle& q : solver.download_particles()) p += double(q.x_m.w) * dvec3(glm::vec3(q.v_vol));
    return p;
  };
  const dvec3 before = momentum();
  const int steps = solver.advance(0.03);
  const RigidImpulse j = solver.take_rigid_impulses().at(0);
  const dvec3 change = momentum() - before;
  std::printf("  %d substeps; snow momentum change (%.6f %.6f %.6f) N s, impulse on the body (%.6f %.6f %.6f) N s\n",
              steps, change.x, change.y, change.z, j.linear.x, j.linear.y, j.linear.z);
  ASSERT_GT(glm::length(j.linear), 0.05 * glm::length(before)) << "the snowball did not hit the body";
  EXPECT_LT(glm::length(change + j.linear), 1e-3 * glm::length(j.linear));
}

// APIC (angular momentum conserving transfers), zero gravity: a snowball hits a spinning box held in place. The grid
// update takes x_i x j_i from the snow's angular momentum about the origin at each node, which sums to the body's
// angular impulse about its fixed position p plus p x (impulse): the snow's change must be minus that, to 1e-2 of
// it (the bound for angular momentum; measured about 2e-4).
TEST(MpmRigid, SnowballOnSpinningBodyExchangesAngularMomentum) {
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  const MpmSettings s = snowball_scene(rng, Transfer::kApic, {0.25, 0.33, 0.28}, {3.0, 0.0, 0.3});
  Solver solver(s, {}, dvec3(0.0), seed_bodies(s));
  RigidCollider box;
  box.planes = random_polyhedron(rng, 0.08, 9);
  box.position = {0.45, 0.3, 0.3};
  box.orientation = mpmtest::random_rotation(rng);
  box.angular_velocity = {1.0, 4.0, -2.0};
  box.friction = 0.5;
  box.boundary = Boundary::kSticky;
  solver.set_rigid_colliders({box});
  auto angular = [&] {
    std::vector<glm::dmat3> c;
    for (const GpuVelocityGradient& g : solver.download_affine()) c.push_back(ref::from_gpu(g));
    return ref::angular_momentum(ref::from_gpu(solver.download_particles()), c, s.grid.spacing);
  };
  const dvec3 before = angular();
  const int steps = solver.advance(0.03);
  const RigidImpulse j = solver.take_rigid_impulses().at(0);
  const dvec3 change = angular() - before;
  const dvec3 given = j.angular + glm::cross(box.position, j.linear);  // about the origin
  std::printf("  %d substeps; snow angular momentum change (%.6f %.6f %.6f), given to the body (%.6f %.6f %.6f) "
              "kg m^2/s\n", steps, change.x, change.y, change.z, given.x, given.y, given.z);
  ASSERT_GT(glm::length(j.angular), 0.0);
  EXPECT_EQ(solver.rigid_colliders()[0].position, box.position);
  EXPECT_LT(glm::length(change + given), 1e-2 * glm::length(given));
}

// The step pass moves each body by its constant velocities: position p0 + v t and orientation
// exp(omega t / 2) q0, both in double (error: a few double roundings per substep, far below float's resolution),
// and a body set again restarts from the pose it is given.
TEST(MpmRigid, PosesAdvanceWithConstantVelocities) {
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  mpmtest::Scene sc = mpmtest::random_scene(rng, 200, {9, 10, 11});
  Solver solver(sc.settings, sc.colliders, sc.gravity, sc.particles);
  std::vector<RigidCollider> bodies;
  for (int k = 0; k < 2; ++k) {
    RigidCollider b = random_body(rng, dvec3(mpmtest::uniform(rng, -1, 1), 0.5, 0.3), 0.1, Boundary::kSlip, k == 0);
    b.angular_velocity = mpmtest::uniform(rng, 5.0, 40.0) * mpmtest::random_direction(rng);
    bodies.push_back(b);
  }
  solver.set_rigid_colliders(bodies);
  const double t0 = solver.time();
  const int steps = solver.advance(0.02);
  const double t = solver.time() - t0;
  const auto moved = solver.rigid_colliders();
  ASSERT_EQ(moved.size(), 2u);
  std::printf("  %d substeps over %.4f s\n", steps, t);
  for (size_t k = 0; k < 2; ++k) {
    const RigidCollider& b = bodies[k];
    const dvec3 p = b.position + t * b.velocity;
    const double w = glm::length(b.angular_velocity);
    const glm::dquat q = glm::angleAxis(w * t, b.angular_velocity / w) * b.orientation;
    EXPECT_LT(glm::length(moved[k].position - p), 1e-12 * (1.0 + glm::length(p))) << "body " << k;
    // q and -q are the same rotation.
    const double dq = std::min(glm::length(glm::dvec4(moved[k].orientation.x - q.x, moved[k].orientation.y - q.y,
                                                      moved[k].orientation.z - q.z, moved[k].orientation.w - q.w)),
                               glm::length(glm::dvec4(moved[k].orientation.x + q.x, moved[k].orientation.y + q.y,
                                                      moved[k].orientation.z + q.z, moved[k].orientation.w + q.w)));
    EXPECT_LT(dq, 1e-12 * steps) << "body " << k << ": rotated by " << w * t << " rad";
    EXPECT_EQ(moved[k].velocity, b.velocity);
    EXPECT_EQ(moved[k].planes, b.planes);
  }
  // The CPU mirror of the motion (Solver::substep) agrees.
  GpuRigidState cpu = to_gpu_state(bodies[1]);
  for (int i = 0; i < 10; ++i) advance_rigid_state(cpu, t / 10);
  EXPECT_LT(glm::length(glm::dvec3(cpu.position) - glm::dvec3(moved[1].position.x, moved[1].position.y,
                                                               moved[1].position.z)),
            1e-12);
}

// A checkpoint holds the bodies (shapes, poses the GPU moved, the float poses it rounded) and the impulse sums not
// yet taken: a restored solver, built without bodies, continues bit for bit and sums the same impulses.
TEST(MpmRigid, CheckpointCarriesBodiesAndImpulses) {
  std::mt19937_64 rng(mpmtest::test_seed());
  mpmtest::Scene sc = mpmtest::random_scene(rng, 733, {13, 10, 11});
  firn::test::gl_context();
  Solver a(sc.settings, sc.colliders, sc.gravity, sc.particles);
  const dvec3 lo = mpmtest::wall_lo(sc.settings.grid), hi = mpmtest::wall_hi(sc.settings.grid);
  RigidCollider free = random_body(rng, 0.5 * (lo + hi), 0.15 * (hi.x - lo.x), Boundary::kSlip, false);
  free.inverse_mass = 20.0;  // takes the impulses up (the restore must carry its velocities and time since the set)
  free.inverse_inertia = glm::dmat3(4e3);
  free.acceleration = sc.gravity;
  a.set_rigid_colliders({free, random_body(rng, lo + 0.3 * (hi - lo), 0.1 * (hi.x - lo.x), Boundary::kSticky, true)});
  a.advance(17 * a.step_limits().dt);
  const auto bytes = saved_state(a);
  Solver b(sc.settings, sc.colliders, sc.gravity, sc.particles);
  BinaryReader in(bytes, "test checkpoint");
  restore_state(b, in);
  EXPECT_EQ(saved_state(b), bytes) << "save after restore gives other bytes";
  const double more = 11 * a.step_limits().dt;
  EXPECT_EQ(a.advance(more), b.advance(more));
  EXPECT_TRUE(same_bytes(a.download_particles(), b.download_particles()));
  const auto ja = a.take_rigid_impulses(), jb = b.take_rigid_impulses();
  ASSERT_EQ(jb.size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(ja[k].linear, jb[k].linear);
    EXPECT_EQ(ja[k].angular, jb[k].angular);
    EXPECT_EQ(a.rigid_colliders()[k].position, b.rigid_colliders()[k].position);
    EXPECT_EQ(a.rigid_colliders()[k].orientation, b.rigid_colliders()[k].orientation);
    EXPECT_EQ(a.rigid_colliders()[k].velocity, b.rigid_colliders()[k].velocity);
  }
  EXPECT_GT(glm::length(ja[0].linear), 0.0) << "the body should have touched the snow";
}

// predict_rigid_velocity against the definition written with glm's matrix product: v = v_set + J / m + t a and
// omega = omega_set + I^-1 L, I^-1 = R diag(1 / I) R^T from the packed symmetric form; a body of inverse mass 0 keeps
// its velocities. Random values of awkward size; 1e-13 relative (the operation orders differ).
TEST(MpmRigid, PredictedVelocityIsTheImpulseOverTheInertia) {
  std::mt19937_64 rng(mpmtest::test_seed());
  for (int trial = 0; trial < 50; ++trial) {
    RigidCollider b;
    b.velocity = mpmtest::uniform(rng, 0.0, 7.0) * mpmtest::random_direction(rng);
    b.angular_velocity = mpmtest::uniform(rng, 0.0, 30.0) * mpmtest::random_direction(rng);
    b.inverse_mass = 1.0 / mpmtest::uniform(rng, 1e-3, 50.0);
    const glm::dmat3 r = glm::mat3_cast(mpmtest::random_rotation(rng));
    const dvec3 inertia(mpmtest::uniform(rng, 1e-5, 1.0), mpmtest::uniform(rng, 1e-5, 1.0),
                        mpmtest::uniform(rng, 1e-5, 1.0));
    b.inverse_inertia = r * glm::dmat3(dvec3(1.0 / inertia.x, 0, 0), dvec3(0, 1.0 / inertia.y, 0),
                                       dvec3(0, 0, 1.0 / inertia.z)) * glm::transpose(r);
    b.acceleration = mpmtest::uniform(rng, 0.0, 20.0) * mpmtest::random_direction(rng);
    GpuRigidState s = to_gpu_state(b);
    const double t = mpmtest::uniform(rng, 0.0, 2e-3);
    advance_rigid_state(s, t);  // the time since the set
    RigidImpulse j;
    j.linear = mpmtest::uniform(rng, 0.0, 3.0) * mpmtest::random_direction(rng);
    j.angular = mpmtest::uniform(rng, 0.0, 0.2) * mpmtest::random_direction(rng);
    predict_rigid_velocity(s, j);
    const dvec3 v = b.velocity + b.inverse_mass * j.linear + t * b.acceleration;
    const dvec3 w = b.angular_velocity + b.inverse_inertia * j.angular;
    EXPECT_LT(glm::length(dvec3(s.velocity) - v), 1e-13 * glm::length(v)) << "trial " << trial;
    EXPECT_LT(glm::length(dvec3(s.angular_velocity) - w), 1e-13 * glm::length(w)) << "trial " << trial;
    b.inverse_mass = 0.0;  // held: the set velocities stay
    GpuRigidState held = to_gpu_state(b);
    predict_rigid_velocity(held, j);
    EXPECT_EQ(dvec3(held.velocity), b.velocity);
    EXPECT_EQ(dvec3(held.angular_velocity), b.angular_velocity);
  }
}

// Zero gravity: a 3 m/s snowball (0.86 kg) hits a free box of 0.0096 kg (20 kg/m^3) within one set of the bodies.
// Held at its set velocity for the whole advance (the exchange before 2026-11-29) the box is handed the momentum of
// all the snow that piles against it, v_set + J / m = 25 m/s here (checked above the bound, so the test tells the
// two apart); taking the impulses up before each substep it moves off with the snow it meets. Bound from the
// collision's limits: no collision of a body at rest with snow at speed <= u gives the body more than 2 u (the
// elastic limit of an infinitely heavy striker), u the snowball's speed.
TEST(MpmRigid, LightFreeBodyTakesTheImpulsesWithinTheSet) {
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  const double speed = 3.0;
  const MpmSettings s = snowball_scene(rng, Transfer::kFlip, {0.25, 0.3, 0.3}, {speed, 0.0, 0.0});
  Solver solver(s, {}, dvec3(0.0), seed_bodies(s));
  RigidCollider box;
  box.planes = box_planes({0.06, 0.1, 0.1});
  box.position = {0.45, 0.3, 0.31};
  const double mass = 20.0 * 0.12 * 0.2 * 0.2;
  box.inverse_mass = 1.0 / mass;
  // A 0.12 x 0.2 x 0.2 m box, unrotated: I = m (b^2 + c^2) / 12 about each axis.
  box.inverse_inertia = glm::dmat3(dvec3(12.0 / (mass * (0.2 * 0.2 + 0.2 * 0.2)), 0.0, 0.0),
                                   dvec3(0.0, 12.0 / (mass * (0.12 * 0.12 + 0.2 * 0.2)), 0.0),
                                   dvec3(0.0, 0.0, 12.0 / (mass * (0.12 * 0.12 + 0.2 * 0.2))));
  box.boundary = Boundary::kSeparate;
  solver.set_rigid_colliders({box});
  const int steps = solver.advance(0.03);
  const RigidCollider moved = solver.rigid_colliders().at(0);
  const RigidImpulse j = solver.take_rigid_impulses().at(0);
  // The same box held at its set velocity over the set (inverse mass 0), and what that impulse would make of it.
  Solver held_solver(s, {}, dvec3(0.0), seed_bodies(s));
  RigidCollider held_box = box;
  held_box.inverse_mass = 0.0;
  held_solver.set_rigid_colliders({held_box});
  held_solver.advance(0.03);
  const dvec3 held = box.velocity + box.inverse_mass * held_solver.take_rigid_impulses().at(0).linear;
  std::printf("  %d substeps; box velocity (%.3f %.3f %.3f) m/s; held at its set velocity it would get "
              "(%.1f %.1f %.1f) m/s\n", steps, moved.velocity.x, moved.velocity.y, moved.velocity.z, held.x, held.y,
              held.z);
  ASSERT_GT(glm::length(j.linear), 0.0) << "the snowball did not hit the body";
  EXPECT_GT(glm::length(held), 2.0 * speed) << "the case should be one the held body fails";
  EXPECT_GT(moved.velocity.x, 0.1 * speed) << "the box should be pushed along";
  EXPECT_LT(glm::length(moved.velocity), 2.0 * speed);
  EXPECT_GT(moved.position.x, box.position.x);
}

// The CPU-chosen substeps (Solver::substep, the CPU mirror of the step pass) and the GPU-resident ones give the
// same bits with bodies that take impulses up: particles, poses and velocities, under gravity on a random scene.
TEST(MpmRigid, BodiesTakingImpulsesMoveAlikeOnGpuAndCpuSubsteps) {
  std::mt19937_64 rng(mpmtest::test_seed());
  mpmtest::Scene sc = mpmtest::random_scene(rng, 1021, {14, 12, 11});
  firn::test::gl_context();
  const dvec3 lo = mpmtest::wall_lo(sc.settings.grid), hi = mpmtest::wall_hi(sc.settings.grid);
  std::vector<RigidCollider> bodies = {
      random_body(rng, 0.5 * (lo + hi), 0.15 * (hi.x - lo.x), Boundary::kSlip, false),
      random_body(rng, lo + 0.3 * (hi - lo), 0.1 * (hi.x - lo.x), Boundary::kSticky, true)};
  for (RigidCollider& b : bodies) {
    b.inverse_mass = 1.0 / mpmtest::uniform(rng, 0.01, 0.2);
    b.inverse_inertia = glm::dmat3(1.0 / mpmtest::uniform(rng, 1e-5, 1e-3));
    b.acceleration = sc.gravity;
  }
  Solver gpu(sc.settings, sc.colliders, sc.gravity, sc.particles);
  Solver cpu(sc.settings, sc.colliders, sc.gravity, sc.particles);
  gpu.set_rigid_colliders(bodies);
  cpu.set_rigid_colliders(bodies);
  const double end = 23 * gpu.step_limits().dt;
  const int n = gpu.advance_until(end, std::numeric_limits<int>::max()).steps;
  EXPECT_EQ(n, mpmtest::advance_from_cpu(cpu, end));
  EXPECT_TRUE(same_bytes(gpu.download_particles(), cpu.download_particles()));
  const auto a = gpu.rigid_colliders(), b = cpu.rigid_colliders();
  const auto ja = gpu.take_rigid_impulses(), jb = cpu.take_rigid_impulses();
  for (size_t k = 0; k < bodies.size(); ++k) {
    EXPECT_EQ(a[k].position, b[k].position) << "body " << k;
    EXPECT_EQ(a[k].orientation, b[k].orientation) << "body " << k;
    EXPECT_EQ(a[k].velocity, b[k].velocity) << "body " << k;
    EXPECT_EQ(a[k].angular_velocity, b[k].angular_velocity) << "body " << k;
    EXPECT_NE(a[k].velocity, bodies[k].velocity) << "body " << k << " should have taken gravity or impulses up";
    EXPECT_EQ(ja[k].linear, jb[k].linear) << "body " << k;
  }
  std::printf("  %d substeps; impulses on the bodies %.3e and %.3e N s\n", n, glm::length(ja[0].linear),
              glm::length(ja[1].linear));
}

// The bounding radius of a body's planes (the grid update's quick rejection) is its farthest vertex; planes that
// leave the body open or enclose nothing are refused.
TEST(MpmRigid, BoundingRadiusAndBadPlanes) {
  std::mt19937_64 rng(mpmtest::test_seed());
  const dvec3 half(0.3, 0.7, 1.1);
  EXPECT_NEAR(bounding_radius(box_planes(half), 0), glm::length(half), 1e-12);
  // A random polyhedron (cut from a cube of half size 1.3 * 0.5): random points inside it lie within the radius,
  // and the radius is no larger than the cube's corner.
  const auto planes = random_polyhedron(rng, 0.5, 13);
  const double r = bounding_radius(planes, 0);
  EXPECT_LE(r, std::sqrt(3.0) * 1.3 * 0.5 + 1e-12);
  double farthest = 0;
  for (int i = 0; i < 20000; ++i) {
    const dvec3 x(mpmtest::uniform(rng, -0.65, 0.65), mpmtest::uniform(rng, -0.65, 0.65),
                  mpmtest::uniform(rng, -0.65, 0.65));
    bool in = true;
    for (const glm::dvec4& p : planes) in = in && glm::dot(dvec3(p), x) <= p.w;
    if (in) farthest = std::max(farthest, glm::length(x));
  }
  EXPECT_LE(farthest, r);
  EXPECT_GT(farthest, 0.8 * r) << "the radius is far beyond every sampled point";
  auto open = box_planes(half);
  open.pop_back();  // no face towards +z
  EXPECT_THROW(bounding_radius(open, 3), std::invalid_argument);
  auto empty = box_planes(half);
  empty[0].w = -2.0;  // -x face beyond the +x face: nothing inside
  EXPECT_THROW(bounding_radius(empty, 4), std::invalid_argument);
  firn::test::gl_context();
  mpmtest::Scene sc = mpmtest::random_scene(rng, 100, {9, 9, 9});
  Solver solver(sc.settings, sc.colliders, sc.gravity, sc.particles);
  RigidCollider bad;
  bad.planes = open;
  EXPECT_THROW(solver.set_rigid_colliders({bad}), std::invalid_argument);
  EXPECT_EQ(solver.rigid_count(), 0u);
}

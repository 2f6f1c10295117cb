#pragma once
/// Helpers shared by the MPM tests: per-test seeds, random scenes of awkward size and GPU-vs-reference statistics.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "core/collider.h"
#include "mpm/layout.h"
#include "mpm/settings.h"

namespace firn::mpm {
class Solver;
}  // namespace firn::mpm

namespace firn::mpmtest {
using namespace firn::mpm;

/// A seed from the running test's full name (FNV-1a, the same on every standard library), printed so that a failure
/// can be reproduced. Env FIRN_TEST_SEED, when set, is mixed in (soak runs over many seeds).
uint64_t test_seed();

/// Uniform double in [a, b).
double uniform(std::mt19937_64& rng, double a, double b);
/// Uniform integer in [a, b].
int uniform_int(std::mt19937_64& rng, int a, int b);
/// Uniform random unit vector.
glm::dvec3 random_direction(std::mt19937_64& rng);
/// Uniform random rotation: a unit quaternion (a point drawn in the unit 4-ball, normalised).
glm::dquat random_rotation(std::mt19937_64& rng);

/// Everything a Solver is built from.
struct Scene {
  MpmSettings settings;
  std::vector<Collider> colliders;
  glm::dvec3 gravity{0.0};
  std::vector<GpuParticle> particles;
};

/// A random scene on a grid of `dims` nodes (random origin and spacing near 0.05 m): three random materials,
/// random gravity direction, a sphere, a box and a plane collider with random boundary kinds, friction and
/// velocities, and `count` particles at random positions between the grid's walls with random velocities (|v_i| < 2
/// m/s), masses, volumes, F_E = I + O(0.03) (times a random rotation for 40 % of them) with its polar rotation R_E
/// stored, and, for about a third of them, a plastic F_P = I + O(0.05) with J_P = det F_P.
Scene random_scene(std::mt19937_64& rng, int count, const glm::ivec3& dims);

/// The interior between the grid's walls (2 spacings inside every face) [m].
glm::dvec3 wall_lo(const Grid& g);
glm::dvec3 wall_hi(const Grid& g);

/// Largest deviation of GPU values from reference values against a bound per value.
struct Deviation {
  std::string what;
  double max_error = 0;   ///< max |gpu - ref|
  double max_ref = 0;     ///< max |ref|
  double worst_ratio = 0; ///< max |gpu - ref| / bound
  size_t compared = 0, exceeded = 0;
  /// Adds one value; counts it as exceeded when |gpu - ref| > bound (or either is not finite).
  void add(double gpu, double ref, double bound);
  /// max_error / max_ref.
  double relative() const { return max_ref > 0 ? max_error / max_ref : max_error; }
  /// Prints one line: what, compared, relative error, worst error/bound.
  void print() const;
};

/// Prints `d` and fails the running test when it compared nothing or a value exceeded its bound.
void expect_within(const Deviation& d);

/// The CPU-driven schedule of firn before GPU-resident stepping (Solver::substep): a status read (CFL step from the
/// last substep's reductions) before every substep, the time left split evenly, a final read at the end. Returns
/// the substeps taken up to `end` [s].
int advance_from_cpu(mpm::Solver& s, double end);

}  // namespace firn::mpmtest

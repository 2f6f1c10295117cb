#pragma once
/// A grain world (plain data) and the functions that build and step it: convex polyhedral grains integrated with
/// the 6-value Gear predictor-corrector, walls, incremental sweep and prune, warm-started closest features and the
/// contact model of contact_model.h (Schinner 1995 §3.7, §4; notes §13).
///
/// One step (step()):
///   predict (Gear, every grain) -> walls to the new time -> boxes (ellipsoid O(1) or vertex min-max) ->
///   sweep and prune (insertion sort, swap-driven pair updates) -> narrow phase per box pair with the pair's
///   persistent feature cache (pair_contact: closest features, separating-axis depth, overlap volume) -> contact
///   forces (+ plane walls, + gravity) -> correct (Gear).
/// Forces are evaluated once per step, at the predicted state, as the thesis's Gear scheme requires; since the
/// contact force depends on velocity, translation uses c0 = 3/16 (notes §4.2).
///
/// Box indices in the sweep and prune: grains first (0 .. N-1), then the pieces of box and mesh walls. Pairs of two
/// wall pieces are ignored; plane walls are infinite and are tested against every grain whose box reaches them.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include <glm/glm.hpp>

#include "dem/closest_feature.h"
#include "dem/contact_model.h"
#include "dem/gear_rigid_body.h"
#include "dem/grain_type.h"
#include "dem/settings.h"
#include "dem/sweep_and_prune.h"
#include "dem/wall.h"

namespace firn::dem {

/// One grain: its type, rigid-body state and Gear state.
struct Grain {
  int type = 0;          ///< Index into World::types.
  /// Moves with its set velocity and angular velocity and never reacts (a hand-placed kinematic body); contacts
  /// treat its mass as infinite.
  bool kinematic = false;
  RigidBody body;        ///< Current state (after the last correction); force/torque hold the last step's loads.
  GearRigidBody gear;    ///< Nordsieck vectors of position and orientation.
  /// Load from outside the grain world (the snow or water a body is coupled to, app/coupling.h), world frame, held
  /// constant over the steps until it is set again: force [N] at the centre of mass and torque about it [N m].
  /// Added to gravity and the contacts by both contact models; it does work, so the watchdog's energy check
  /// stands aside while any is non-zero.
  glm::dvec3 external_force{0.0};
  glm::dvec3 external_torque{0.0};
};

/// Persistent state of one broad-phase pair (grain-grain or grain-wall piece).
struct PairState {
  FeaturePair features;      ///< Closest-feature cache (temporal coherence, notes §6.6).
  TangentialSpring spring;   ///< Cundall-Strack spring; reset when the pair separates.
  std::uint64_t stamp = 0;   ///< Step at which the pair was last seen by the broad phase.
};

/// Persistent tangential spring of a merged grain-wall contact (see wall.h), matched from step to step by normal.
struct WallSpring {
  glm::dvec3 normal{0.0};    ///< Contact normal of the last step [-].
  TangentialSpring spring;   ///< The spring.
};

/// Counters of one step.
struct StepCounters {
  int contacts = 0;               ///< Contacts with overlap (grain-grain + merged grain-wall).
  int grain_contacts = 0;         ///< Grain-grain contacts with overlap.
  int wall_contacts = 0;          ///< Merged grain-wall contacts with overlap.
  std::uint64_t box_pairs = 0;    ///< Overlapping box pairs after the broad phase (all kinds).
  std::uint64_t swaps = 0;        ///< Insertion-sort exchanges of the sweep and prune (c of §4.1.1).
  std::uint64_t narrow_tests = 0; ///< Closest-feature queries (grain-grain and grain-piece pairs).
  std::uint64_t walk_iterations = 0;  ///< Total closest-feature walk iterations.
  double max_penetration = 0.0;   ///< Largest penetration depth [m].
  double kinetic_energy = 0.0;    ///< Sum over grains of translational + rotational energy [J] (after the step).
  double elastic_energy = 0.0;    ///< Energy in the contact springs at the predicted state [J].
  int contact_points = 0;         ///< Complementarity model: manifold points passed to the solver.
  int solver_iterations = 0;      ///< Complementarity model: solver sweeps of the step.
  double solver_residual = 0.0;   ///< Complementarity model: KKT residual of the returned impulses [m/s].
};

/// Impulse of one manifold point kept for the next step's warm start (complementarity model).
struct CachedImpulse {
  glm::dvec3 local_point{0.0};  ///< Contact point in body A's frame [m] (matches points from step to step).
  glm::dvec3 impulse{0.0};      ///< Impulse on B, world frame [N s].
};

/// The whole grain world (plain data; build with make_world or by hand followed by start_world).
struct World {
  double dt = 1e-4;                        ///< Time step [s].
  BoxMethod box_method = BoxMethod::kEllipsoid;
  double box_margin = 0.0;                 ///< [m].
  ContactParameters contact;               ///< Force model.
  ContactModelType model = ContactModelType::kSoft;  ///< Contact law (settings.h).
  ComplementarityParameters complementarity;         ///< Complementarity model settings (margin resolved > 0).
  glm::dvec3 gravity{0.0, -9.81, 0.0};     ///< [m/s^2].
  double time = 0.0;                       ///< Simulated time of the current state [s].
  std::uint64_t steps = 0;                 ///< Steps taken.
  std::vector<GrainType> types;            ///< Grain types (shapes shared per type).
  std::vector<Grain> grains;               ///< Grains.
  std::vector<Wall> walls;                 ///< Walls.
  std::vector<WallPiece> pieces;           ///< Convex pieces of box and mesh walls.
  SweepAndPrune sap;                       ///< Broad phase.
  std::vector<Aabb> boxes;                 ///< Scratch: grain boxes then piece boxes.
  std::unordered_map<std::uint64_t, PairState> pairs;  ///< Per box pair (key a << 32 | b, a < b).
  std::unordered_map<std::uint64_t, std::vector<WallSpring>> wall_springs;  ///< Per (grain << 32 | wall).
  /// Complementarity model: last step's impulses per pair key (grain pairs as in `pairs`; plane walls
  /// grain << 32 | 0x80000000 | wall).
  std::unordered_map<std::uint64_t, std::vector<CachedImpulse>> impulses;
  StepCounters last;                       ///< Counters of the last step (or of start_world()).
  std::uint64_t evaluations = 0;           ///< Load evaluations so far (stamps PairState::stamp).
  bool started = false;                    ///< start_world() has run.
};

/// World from settings and gravity [m/s^2]: grain types, grains seeded on their lattices with random orientations,
/// walls and their pieces; then start_world(). Throws std::runtime_error naming the field ("grains[1].count ...")
/// when a region cannot hold its grains or a value is out of range.
World make_world(const DemSettings& settings, const glm::dvec3& gravity);

/// Appends a wall (and its pieces, meshes with prism depth `thickness` or, if that is 0, the largest grain size).
/// Call before start_world().
void add_wall(World& world, const WallSettings& wall);

/// Appends a grain of type `type` with state `body` (mass and inertia are taken from the type); returns its index.
/// Before start_world() the Gear state is set there; afterwards it starts at once with gravity as the only load.
int add_grain(World& world, int type, const RigidBody& body);

/// Evaluates the loads at the current state (without advancing the contact springs) and starts the Gear
/// integrators from them. Idempotent per grain set; step() calls it if needed.
void start_world(World& world);

/// Appends a rigid body placed by hand with its own grain type (body.h); returns its grain index.
int add_body(World& world, const BodySettings& body);

/// One time step of length world.dt (see the file comment; with ContactModelType::kComplementarity,
/// step_complementarity()). Throws std::runtime_error if the state becomes non-finite (time step too large for the
/// contact stiffness).
void step(World& world);

/// One step of the complementarity model (docs/hard-contact.md): broad phase and manifolds at the current state,
/// free velocities (gravity, implicit gyroscopic term), the cone complementarity problem for the contact impulses
/// (complementarity.h), then positions and quaternions from the new velocities (semi-implicit Euler:
/// q <- normalise(q + h/2 q [0, w_body]), the errata's body-frame rate). Throws std::runtime_error on a
/// non-finite state.
void step_complementarity(World& world);

/// Kinetic energy of all grains except kinematic bodies (infinite mass) [J].
double kinetic_energy(const World& world);

/// Potential energy -sum m g . x of all grains except kinematic bodies in the world's gravity [J].
double potential_energy(const World& world);

/// Body -> world placement of grain i.
Placement grain_placement(const World& world, int grain);

/// Placement of a wall piece's rest-frame coordinates in the world at the wall's current pose.
Placement piece_placement(const World& world, int piece);

/// Largest grain size (largest semi-axis of any type's enclosing ellipsoid) [m]; 0 without types.
double largest_grain_size(const World& world);

}  // namespace firn::dem

#pragma once
/// The GPU SPH water solver (Mueller, Charypar & Gross 2003 forces, weakly compressible Tait pressure) with the
/// domain-size-independent hashed neighbour search of hash_sort.h.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "core/advance.h"
#include "core/binary_io.h"
#include "core/collider.h"
#include "core/staged_read.h"
#include "core/rigid_collider.h"
#include "gl/buffer.h"
#include "gl/collider_buffer.h"
#include "gl/program.h"
#include "gl/resident_advance.h"
#include "gl/timer.h"
#include "sph/gpu_surface_mesh.h"
#include "sph/hash_sort.h"
#include "sph/layout.h"
#include "sph/seeding.h"
#include "sph/settings.h"
#include "sph/solid_field.h"

namespace firn::sph {

/// Time-step limits of the last evaluation (Monaghan-style CFL, force and viscous conditions).
struct StepLimits {
  double dt = 0;          ///< chosen time step [s]
  double max_speed = 0;   ///< largest particle speed at the last check [m/s]
  double max_accel = 0;   ///< largest particle acceleration at the last check [m/s^2]
  double max_density = 0; ///< largest particle density at the last check [kg/m^3]
  double dt_cfl = 0;      ///< WCSPH: cfl h / (c + |v|max); DFSPH: the step that moves a particle cfl s [s]
  double dt_force = 0;    ///< 0.25 sqrt(h / |a|max) [s]
  double dt_viscous = 0;  ///< the explicit viscosity's and damping's stability bound [s] (time_step_limits)
  /// DFSPH: the water's extent along gravity at the last check, as the difference of its largest and smallest
  /// potential -g . x [J/kg] (rho0 head is the hydrostatic pressure at its lowest point); 0 with WCSPH
  double head = 0;
  /// DFSPH: DFSPH_PRESSURE_STEP_FRACTION 2 / omega, omega^2 = rho0 dfsph_pressure_stiffness head [s]; infinite with
  /// WCSPH (its acoustic step is about 12 times shorter)
  double dt_pressure = 0;
};

/// What DFSPH's solves did (SphSettings::pressure_solver kDfsph; zero with WCSPH).
struct PressureSolveStats {
  uint32_t density_iterations = 0;     ///< corrections of the constant-density solve in the last step
  uint32_t divergence_iterations = 0;  ///< corrections of the divergence-free solve in the last step
  double density_error = 0;            ///< its final average predicted compression (relative) in the last step
  double divergence_error = 0;         ///< the divergence solve's, dt D rho / D t / rho0
  uint64_t steps = 0;                  ///< steps summed below (since the solver was made)
  uint64_t density_iterations_sum = 0, divergence_iterations_sum = 0;
  uint64_t unconverged = 0;            ///< solves that stopped at max_iterations above max_density_error
};

/// Force [N] and torque [N m] of the water on one solid (about its reference point: a collider's point or centre,
/// a domain face's centre, a boundary slab's plane point).
struct SolidLoad {
  glm::dvec3 force{0.0};
  glm::dvec3 torque{0.0};
};

/// Runs SPH water on the GPU. Needs a current OpenGL 4.3 context. The particle buffer is kept sorted by hash key
/// (re-sorted at the end of every step, so that between steps the slots, the cell table and the positions agree;
/// particles given at construction or by upload_particles keep their slots until the next step sorts them),
/// so particle slots change every step; GpuParticle::id is stable. Steps run GPU-resident: the GPU chooses each dt
/// (shaders/sph/step.comp) and the CPU reads the state back once per advance_until (docs/water.md "Steps without
/// waiting").
/// Step: sort (hash keys, counting or radix sort, cell table), reorder, density + pressure, forces, integration
/// with control regions and walls; see shaders/sph/*.comp.
class Solver {
 public:
  /// `particles` from seed_bodies; `gravity` [m/s^2]. Throws std::invalid_argument for an empty particle set or
  /// more than 2^22 particles, std::runtime_error when shaders fail to build.
  Solver(const SphSettings& settings, std::vector<Collider> colliders, const glm::dvec3& gravity,
         const std::vector<GpuParticle>& particles);

  /// Advances simulated time by `seconds` [s] in steps of the adaptive time step. Throws firn::NumericalError
  /// naming the step, the quantity and the particle on a non-finite state, a CFL violation, compression beyond
  /// the bound or energy growth in a closed tank. Returns the steps.
  int advance(double seconds);
  /// advance() in slices (for the interactive viewer): advances towards simulated time `end` [s] by at most
  /// `max_steps` steps (at least one), on advance()'s own schedule, so calling it until `reached` with the same
  /// `end` gives bit-identical state to advance(end - time()). Issues the steps without waiting for the GPU and
  /// reads the state back once, at the end (one blocking read per call, gl::blocking_reads()). Throws as advance().
  AdvanceResult advance_until(double end, int max_steps);
  /// One step of `dt` [s] chosen by the caller (benchmarks and tests): collider and body motion, then every pass.
  /// Errors are only checked by check_status().
  void step(double dt);
  /// Reads the status and step state back (waits for the GPU), throws firn::NumericalError on a reported error and
  /// updates step_limits(), energy() and pressure_solve_stats().
  void check_status();
  StepLimits step_limits() const { return limits_; }
  /// DFSPH: the speed of the fastest point of a moving solid [m/s], the largest |v| of the colliders and |v| + |omega|
  /// r of the rigid bodies (r their bounding radius), as the water saw them last set. Its CFL condition counts it
  /// beside the particles' speed, as SPlisHSPlasH's does (Simulation::updateTimeStepSizeCFL, the velocities of
  /// dynamic and animated boundaries): water at rest has no speed to limit the step, and a ball driven into a pool
  /// at 5 m/s entered 0.625 spacings per 5 ms step and ended on the compression bound
  /// (DfsphImpacts.StepFollowsTheFastestSolidSoABallDrivenIntoAPoolRuns). 0 with WCSPH, whose sound speed the loader
  /// checks against the moving colliders (scene/load.cpp).
  double solid_speed() const;
  /// DFSPH's iterations and errors, as of the last read-back.
  const PressureSolveStats& pressure_solve_stats() const { return solve_stats_; }
  /// Kinetic plus potential energy of the water [J] (potential from the domain's lowest corner along gravity) of
  /// the last step read back; NaN before the first.
  double energy() const { return energy_; }

  /// Force and torque of the water on every solid from the particles' current density and pressure (call after
  /// a step): colliders in order, then the 6 domain faces (x-, x+, y-, y+, z-, z+; zero: their mirror images are
  /// not solids), then one per control region (zero for regions that are not boundary slabs), then one per rigid
  /// body (torque about its centre of mass). Summed in 64-bit
  /// fixed point (2^-24 N), so the result does not depend on the GPU's order of work. Waits for the GPU.
  std::vector<SolidLoad> solid_loads();

  /// The water's free surface as a closed, consistently oriented triangle mesh, extracted on the GPU from the
  /// particles and the cell table (sph::SurfaceMesher; the same surface as sph::extract_surface). `settings`'
  /// kernel_radius must be the water's h (the cell table's). Throws std::invalid_argument for settings out of range
  /// or another kernel radius, SurfaceMeshTooLarge when the water spreads beyond what the extraction holds. Waits for
  /// the GPU (five blocking reads).
  SurfaceMesh surface_mesh(const SurfaceMeshSettings& settings);

  // The passes, in step order (public so that tests can check each against a CPU reference). density(),
  // forces() and neighbour_ids() read the packed positions that sort() writes: call sort() first.
  /// Sorts by hash key and gathers the particles (and their packed positions) into sorted order.
  void sort();
  /// Density and pressure of every particle.
  void density();
  /// Accelerations of every particle.
  void forces();
  /// DFSPH: the divergence-free (`mode` SPH_SOLVE_DIVERGENCE; after density()) or constant-density solve
  /// (SPH_SOLVE_DENSITY; after forces()), warm start and Jacobi iterations until the average error is within
  /// SphSettings::max_density_error, all issued without a read-back (shaders/sph/pressure_solve.glsl).
  void pressure_solve(uint32_t mode);
  /// Velocity and position update, control regions, walls, reductions.
  void integrate();
  /// Sets dt [s] for passes called one by one (tests): the step state's dt, CFL speed and step index, marked as
  /// running. Not needed before step() or advance_until().
  void set_time_step(double dt);
  /// Replaces the colliders (given as functions of time: points are poses at t = 0, core/collider.h posed_at; the
  /// count may change) from the next step on. An edit is work done on the water: the closed-tank energy check
  /// restarts from the next step's energy.
  void set_colliders(std::vector<Collider> at_zero);
  /// Sets the dynamic viscosity mu [Pa s] (>= 0), the artificial viscosity alpha [1] (>= 0; see
  /// SphSettings::artificial_viscosity), the surface tension sigma [N/m] (>= 0) and the numerical speed
  /// of sound c [m/s] (> 0; the density error of weakly compressible SPH scales as (|v|max / c)^2) from the next
  /// step on; the time step follows at the next status read (CFL and viscous conditions). Values are the caller's
  /// to check (app::WaterSolver's ranges).
  void set_fluid(double viscosity, double artificial_viscosity, double surface_tension, double sound_speed);
  // Rigid bodies (issue 14 point 3, docs/coupling.md): solids of the boundary model after the regions (density,
  // pressure, viscosity with the body's velocity v + omega x r, and the push-out of the integrate pass). The
  // bodies pass moves their poses on the GPU before every step; the density and integrate passes sum the water's
  // impulse on each body in 64-bit fixed point until take_rigid_impulses reads them.
  /// Replaces the rigid bodies (the count may change; none is allowed) from the next step on. Bounding radii are
  /// recomputed (O(n^4), firn::bounding_radius) only for bodies whose planes changed at their index; the impulse
  /// sums of the bodies that remain (by index) stay. Throws std::invalid_argument (check_rigid_collider,
  /// bounding_radius), leaving the bodies as they were. Bodies do work on the water: the closed-tank energy check
  /// stands aside while there are any.
  void set_rigid_bodies(std::vector<RigidCollider> bodies);
  /// The bodies with the poses the bodies pass has moved them to (one blocking read).
  std::vector<RigidCollider> rigid_bodies() const;
  /// Impulse [N s] and angular impulse about the centre of mass [N m s] the water gave each body since the last
  /// call (RIGID_IMPULSE_SCALE: 2^-32 N s, deterministic), and resets the sums. Right after a status read (the end
  /// of every advance) the sums came back with it: no read of their own; otherwise one blocking read. A sum that left
  /// the int64 range was reported by the status as SPH_ERROR_BODY_IMPULSE_OVERFLOW.
  std::vector<RigidImpulse> take_rigid_impulses();
  size_t rigid_body_count() const { return bodies_.size(); }

  /// Another solver exchanges momentum with the water (app/snow_water_exchange.h): it does work on the water, so
  /// the closed-tank energy check stands aside from now on.
  void set_coupled() {
    coupled_ = true;
    closed_tank_ = false;
  }
  /// Makes the water see a solid given as a volume fraction on `grid` (sph/solid_field.h) from the next step on:
  /// allocates the fraction (float per node, zero), the reaction sums (6 uint per node, zero) and the motion (vec4
  /// per node, zero). Throws
  /// std::invalid_argument for a spacing or scale <= 0, a count < 1, or reaction sums larger than one storage
  /// binding.
  void set_solid_field(const SolidFieldGrid& grid);
  /// Volume fraction phi_n [1] of every node (float, x fastest): the owner of the solid writes it between steps.
  const gl::Buffer& solid_field_fraction() const { return field_fraction_; }
  /// The water's impulse on every node since the owner last zeroed it (6 uint per node: int64 x, y, z, low word
  /// first, in units of 1 / reaction_scale N s), added by every density pass (WCSPH) or every correction of the
  /// solves (DFSPH).
  const gl::Buffer& solid_field_reaction() const { return field_reaction_; }
  /// The solid's velocity [m/s] (xyz) and inverse mass [1/kg] (w; 0: it does not move) at every node, written with
  /// the fraction: DFSPH's solves let the solid move as they push it (strong coupling,
  /// shaders/sph/solid_field_motion.glsl); WCSPH does not read it.
  const gl::Buffer& solid_field_motion() const { return field_motion_; }
  /// Runs the density and force passes in chunks of `particles` (tests: chunk boundaries on a small set; the solver
  /// chooses the largest chunk whose lists fit one binding). Throws std::invalid_argument unless `particles` is a
  /// positive multiple of SPH_LOCAL_SIZE whose list offsets meet the storage offset alignment, and no larger than
  /// the chosen chunk.
  void set_list_chunk(uint32_t particles);
  /// Chooses the sorting algorithm of the next steps (both give the same order).
  void set_sort_method(SortMethod m) { settings_.sort = m; }

  /// Neighbour ids of every particle (itself included) in sorted-slot order, found by the GPU neighbour loop on
  /// the current (sorted) buffer; call after sort(). `max_per_particle` bounds each list; a longer list throws
  /// std::runtime_error.
  std::vector<std::vector<uint32_t>> neighbour_ids(uint32_t max_per_particle = 256);
  /// The neighbour lists the last density pass wrote (SphSettings::neighbour_list_stride words per sorted slot:
  /// the count, then sorted slot << 3 | image mask); empty without lists.
  std::vector<uint32_t> download_neighbour_lists() const { return neighbour_lists_.read<uint32_t>(); }
  /// The order of the last sort: slot s held the particle now at sorted slot s at index order()[s] before it.
  std::vector<uint32_t> download_order() const { return sort_.order().read<uint32_t>(); }
  /// The hash table of the last sort (T + 1 entries).
  std::vector<uint32_t> download_cell_start() const { return sort_.cell_start().read<uint32_t>(); }

  /// Bytes of every GPU buffer the solver owns (particles, neighbour structure, uniforms, colliders, regions).
  size_t gpu_bytes() const;

  const gl::Buffer& particles() const { return particles_[current_]; }
  uint32_t particle_count() const { return count_; }
  uint32_t table_size() const { return sort_.table_size(); }
  const std::vector<Collider>& colliders() const { return colliders_.colliders(); }
  const SphSettings& settings() const { return settings_; }
  const glm::dvec3& gravity() const { return gravity_; }
  double time() const { return time_; }
  uint64_t steps() const { return step_; }
  /// Steps issued by advance_until since construction, those past the end included (the step pass ran none of
  /// their passes; GPU-resident stepping issues them when the CPU's estimate of the steps left is high).
  uint64_t issued_steps() const { return issued_; }
  /// advance_until issues at least `steps` steps between read-backs (1..32, default 1; clamped), even when the last
  /// read-back says fewer are left: fewer polls, more steps past the end (which change nothing; tests use it to
  /// issue many).
  void set_min_batch(uint32_t steps) { min_batch_ = std::clamp<uint32_t>(steps, 1, 32); }
  gl::PassTimer& timer() { return timer_; }

  /// Particles in their current (sorted) slot order.
  std::vector<GpuParticle> download_particles() const { return particles().read<GpuParticle>(); }
  /// Overwrites the particle state (same count; tests, resets). The next step's dt follows from the new particles'
  /// speeds (as at construction); the energy watchdog keeps its reference. Steps issued and not yet read are
  /// read first (check_status: their failures throw here). Throws std::invalid_argument if the count differs.
  void upload_particles(const std::vector<GpuParticle>& p);

 private:
  // Checkpoints (sph/state.h) read and restore the clocks, limits and counters below.
  friend void save_state(const Solver& solver, BinaryWriter& out);
  friend void restore_state(Solver& solver, BinaryReader& in);

  void bind() const;
  /// Dispatches the density or force pass over every particle, in chunks whose neighbour lists fit one binding.
  /// `indirect`: group counts from the solve's dispatch arguments (one per chunk), set by the last work group of
  /// each prediction (dfsph_check.glsl).
  void dispatch_with_lists(gl::Program& program, bool indirect = false);
  uint32_t chunk_count() const;
  void upload_params();
  void barrier() const;
  /// The step limits for the given largest speed [m/s], acceleration [m/s^2] and head [J/kg] (StepLimits::head; the
  /// conditions of step.comp's time_step_limit, in the same double operations).
  StepLimits time_step_limits(double max_speed, double max_accel, double head) const;
  void choose_time_step(double max_speed, double max_accel, double head) {
    limits_ = time_step_limits(max_speed, max_accel, head);
  }
  bool is_closed_tank() const;
  // GPU-resident stepping (solver_advance.cpp).
  struct Readback {
    GpuStatus status{};
    GpuStep step{};
    GpuPressureSolve solve{};
  };
  void bind_step() const;
  void upload_collider_points();
  /// Writes the CPU's part of the step state (and zeroes `taken`): the advance's end [s], a forced dt [s] (0: the
  /// step pass chooses) and the step budget. With `whole`, also the GPU's part from the CPU's copy stepper_.
  void upload_step(double end, double forced_dt, uint32_t budget, bool whole = false);
  /// Sets the next step's limits from `particles` (their largest speed [m/s]) and gravity, as a step's reductions
  /// would, and uploads the whole step state.
  void start_from(const std::vector<GpuParticle>& particles);
  void step_pass(uint32_t mode);
  /// One step as the GPU runs it: the begin pass, every pass (each returns at once when the begin pass decided
  /// that the step does not run), the sort, the fold pass.
  void issue_step();
  gl::InFlight record(size_t slot);
  Readback read(const gl::InFlight& f) const;
  /// Takes a read-back over as the CPU's state (time, steps, limits, energy, collider poses); throws on an error.
  void apply(const Readback& r);
  /// apply(), then the body impulse sums and DFSPH's totals of the same slot.
  void take_over(const gl::InFlight& f, const Readback& r);
  [[noreturn]] void throw_failure(const Readback& r) const;

  SphSettings settings_;
  gl::ColliderBuffer colliders_;
  glm::dvec3 gravity_;
  uint32_t count_;
  uint32_t current_ = 0;
  double time_ = 0;
  uint64_t step_ = 0;
  bool unread_ = false;  ///< step() ran since the last read-back
  bool unsorted_ = true;  ///< the particles were set by the caller since the last sort
  uint64_t read_step_ = 0;  ///< step_ at the last read-back
  uint64_t issued_ = 0;     ///< see issued_steps()
  uint32_t min_batch_ = 1;  ///< see set_min_batch()
  GpuStep stepper_{};    ///< the CPU's copy of the step state, as of the last read-back
  uint32_t energy_epoch_ = 0;  ///< bumped by edits that do work on the water (GpuStep::energy_epoch)
  StepLimits limits_;
  /// The lattice sums of the explicit viscosity and damping (explicit_coupling_sums): fixed by h and s, which no
  /// edit changes, so computed once for time_step_limits.
  ExplicitCouplingSums coupling_sums_;
  /// DFSPH: omega^2 of the pressure's checkerboard mode per unit head [1/m^2], rho0 dfsph_pressure_stiffness; 0
  /// with WCSPH. Fixed by the spacing and h, so computed once for time_step_limits.
  double head_stiffness_ = 0;
  /// continuum_erosion() of the settings [m], computed once (it depends on the spacing, h and the pressure solver
  /// only; upload_params runs at every rigid-body exchange).
  double erosion_ = continuum_erosion(settings_);
  bool coupled_ = false;      ///< see set_coupled()
  bool closed_tank_ = false;  ///< no region moves water and no collider moves: the energy can only fall
  double energy_ = std::numeric_limits<double>::quiet_NaN();
  double mass_ = 0;  ///< the water's mass at construction [kg] (the energy check's slack)
  gl::Buffer particles_[2];
  gl::Buffer positions_;  ///< vec4 (position, mass) per sorted slot, written by the reorder pass
  gl::Buffer boundary_;   ///< GpuBoundaryTerms per sorted slot, written by the density pass
  HashSort sort_;
  gl::Buffer regions_, status_, params_;
  gl::Buffer step_state_;       ///< GpuStep
  gl::Buffer collider_points_;  ///< dvec4 point at t = 0 and velocity per collider (the step pass poses them)
  gl::Buffer staging_;          ///< read-back slots: status, step state, DFSPH solve, body impulse sums
  gl::Program reorder_, density_, forces_, integrate_, neighbour_list_, loads_, step_pass_;
  gl::Program dfsph_predict_, dfsph_correct_, dfsph_start_, dfsph_reactions_;
  gl::Buffer solve_;         ///< GpuPressureSolve (DFSPH)
  gl::Buffer solve_args_;    ///< uvec4 indirect dispatch arguments per chunk of particles (DFSPH)
  gl::Buffer solver_terms_;  ///< uvec4 per sorted slot: DFSPH factor, kappa, running totals; then kappa / rho^2, L
  PressureSolveStats solve_stats_;
  std::vector<RigidCollider> bodies_;  ///< shapes and responses as set (poses and velocities as of the set)
  std::vector<double> body_radii_;     ///< bounding radius of each body about its centre of mass [m]
  gl::Buffer bodies_gpu_, body_planes_, body_impulses_, body_states_;
  std::optional<SolidFieldGrid> field_;  ///< see set_solid_field
  gl::Buffer field_fraction_, field_reaction_, field_motion_;
  gl::Buffer neighbour_lists_;  ///< see SphSettings::neighbour_list_stride (empty when 0)
  uint32_t list_chunk_ = 0;     ///< particles whose lists fit one storage binding (a multiple of the offset alignment)
  StagedRead staged_impulses_;  ///< the impulse sums read with the last status
  std::optional<SurfaceMesher> mesher_;  ///< made at the first surface_mesh()
  gl::PassTimer timer_;
};

}  // namespace firn::sph

#pragma once
/// The GPU MPM snow solver (Stomakhin et al. 2013, explicit; after Meyer 2015's OpenGL compute port, corrected).
#include <cstdint>
#include <limits>
#include <vector>

#include "core/advance.h"
#include "core/binary_io.h"
#include "core/collider.h"
#include "core/staged_read.h"
#include "gl/buffer.h"
#include "gl/collider_buffer.h"
#include "gl/program.h"
#include "gl/resident_advance.h"
#include "gl/scan.h"
#include "gl/sync.h"
#include "gl/timer.h"
#include "mpm/fixed_point.h"
#include "mpm/layout.h"
#include "mpm/rigid_colliders.h"
#include "mpm/settings.h"

namespace firn::mpm {

/// Particles per chunk of a particle pass: as many as fit one storage binding (GL_MAX_SHADER_STORAGE_BLOCK_SIZE) for
/// both per-particle buffers (GpuParticle, GpuVelocityGradient), a multiple of the binding offset alignment so that
/// every chunk's byte offsets are aligned. Needs a current context.
uint32_t particles_per_chunk_limit();

/// Time-step limits of the last CFL evaluation.
struct StepLimits {
  double dt = 0;            ///< chosen time step [s]
  double wave_speed = 0;    ///< elastic wave speed sqrt((lambda + 2 mu) H / rho0), worst material, times h in
                            ///< thesis_gradient mode [m/s]
  double max_speed = 0;     ///< largest particle speed at the last check [m/s]
  double cfl_number = 0;    ///< dt (wave_speed + max(max_speed, fastest collider or rigid-body point)) / h
  double hardening = 1;     ///< largest exp(xi (1 - J_P)) at the last check
};

/// Runs MPM snow on the GPU. Needs a current OpenGL 4.3 context. Particle state lives in GPU buffers only; the
/// renderer draws `particles()` directly. Substep passes: particle-to-grid, grid update (with colliders),
/// grid-to-particle, particle update (F, plasticity, collisions, advection); see shaders/mpm/*.comp.
/// advance() and advance_until() are GPU-resident: a step pass (shaders/mpm/step.comp) chooses each substep's dt on
/// the GPU from the previous substep's reductions, so the CPU issues substeps without waiting and reads the state
/// back once per call (docs/snow-pipeline.md).
class Solver {
 public:
  /// `particles` seeded by seed_bodies (or a mesh sampler); `gravity` [m/s^2]. The first-step volume estimate runs
  /// here. Throws std::runtime_error when shaders fail to build, std::invalid_argument for an empty particle set or
  /// for thesis_gradient with the quadratic kernel.
  Solver(const MpmSettings& settings, std::vector<Collider> colliders, const glm::dvec3& gravity,
         const std::vector<GpuParticle>& particles);

  /// Advances simulated time by `seconds` [s] with CFL-limited substeps (dt re-evaluated before every substep, on
  /// the GPU, from the previous substep's largest particle speed and hardening). Throws firn::NumericalError naming
  /// the substep and quantity on fixed-point overflow, non-finite state or a CFL violation (the GPU stops stepping
  /// at the first error, so the state is the failing substep's), and at the end on energy growth without work
  /// (MpmSettings::max_energy_growth, check_energy). Returns the substeps taken.
  int advance(double seconds);
  /// advance() in slices, for the interactive viewer: advances towards simulated time `end` [s] by at most
  /// `max_substeps` (at least 1) substeps. Calling it until `reached` with the same `end` gives state bit-identical
  /// to advance(end - time()); edits (set_material, set_colliders, set_flip) between calls apply at the next
  /// substep. One blocking read (gl::blocking_reads) at the end of each call (the energy watchdog's sum comes with
  /// it); status checks in between are read asynchronously behind fences. Returns the substeps taken as
  /// AdvanceResult::steps. Throws as advance().
  AdvanceResult advance_until(double end, int max_substeps);
  /// One substep of `dt` [s] chosen by the CPU (tests, benchmarks): collider motion, then every pass. Errors are
  /// only checked by check_status().
  void substep(double dt);
  /// The CFL time step from the last status read (see StepLimits).
  StepLimits step_limits() const { return limits_; }
  /// Reads the status buffer, throws firn::NumericalError on a reported error, updates step_limits() and resets
  /// the speed/hardening reductions. Waits for the GPU (one blocking read). For substep(); advance() checks itself.
  void check_status();

  // The individual passes, in substep order (public so tests can check each against a CPU reference).
  // particle_to_grid expects zeroed grid accumulators; grid_update zeroes them after reading them, so a substep
  // needs no clear pass. clear_grid zeroes them explicitly (tests, and after the volume estimate).
  void clear_grid();
  void particle_to_grid();
  void grid_update();
  void grid_to_particle();
  void particle_update();
  /// First-step volume estimate: mass to grid, then V_p^0 = m_p / rho_p^0, weighed with the cubic B-spline whatever
  /// the transfers' kernel (the same initial volumes, hence the same material, under every kernel).
  void estimate_volumes();
  /// Sets dt [s] and the substep counter used by the next passes (uploads the uniform block).
  void set_time_step(double dt);

  /// Replaces material `index` (live edits): the next substep uses it and the CFL step follows.
  void set_material(int index, const Material& material);
  /// Replaces the colliders (same count or not), given as functions of time: points are poses at t = 0
  /// (core/collider.h, posed_at); the next substep poses them at its end time.
  void set_colliders(std::vector<Collider> at_zero);
  /// Sets the PIC/FLIP blend alpha in [0, 1].
  void set_flip(double alpha);

  // Rigid bodies (two-way coupling, docs/snow-pipeline.md "Rigid bodies"). Each is a moving collider of the grid
  // update (applied after the kinematic colliders, before the grid's walls); the momentum each grid node loses to a
  // body is summed per body on the GPU.
  /// Replaces the rigid bodies (the count may change; none is allowed). From the next substep they move with their
  /// velocities (position += v dt, orientation rotated by omega dt) substep by substep on the GPU; a body with an
  /// inverse mass > 0 also takes up, before each substep, the impulses the grid has given it since this set
  /// (predict_rigid_velocity), so the impulse sums should be taken before the next set. Impulse sums not yet taken
  /// are kept for the bodies that remain (by index). A body's bounding radius is computed from its planes
  /// (O(n^4), mpm::bounding_radius) when they differ from those of the body set before at its index. Throws
  /// std::invalid_argument (check_rigid_collider, bounding_radius), leaving the bodies as they were.
  void set_rigid_colliders(std::vector<RigidCollider> bodies);
  /// The bodies with their current poses and velocities as the solver has moved them (the velocities are the set
  /// ones unless a body takes impulses: RigidCollider::inverse_mass); planes, friction and boundary as last set.
  /// One blocking read when the GPU has moved them since the last call (call it at a coupling interval only).
  std::vector<RigidCollider> rigid_colliders() const;
  /// Sum over the grid updates since the last call of the impulse the snow exerted on each body (the negated
  /// momentum change its boundary condition gave the grid nodes), in 64-bit fixed point summed on the GPU
  /// (MPM_RIGID_IMPULSE_SCALE: 2^-32 N s; deterministic); resets the sums. Right after an advance the sums came
  /// back with its final status read (no read of their own: one blocking read per coupling interval in all);
  /// otherwise (after substep(), or twice in a row) one blocking read. A sum that leaves the
  /// int64 range is reported as a NumericalError by the advance (or check_status) that overflowed it.
  std::vector<RigidImpulse> take_rigid_impulses();
  size_t rigid_count() const { return rigid_.size(); }
  /// Another solver exchanges momentum with the snow (app/snow_water_exchange.h): it does work on the snow, so the
  /// energy watchdog stands aside from now on.
  void set_coupled() { coupled_ = true; }

  const gl::Buffer& particles() const { return particles_; }
  uint32_t particle_count() const { return count_; }
  const std::vector<Collider>& colliders() const { return colliders_.colliders(); }
  const MpmSettings& settings() const { return settings_; }
  const glm::dvec3& gravity() const { return gravity_; }  ///< [m/s^2]
  const FixedPointScales& scales() const { return scales_; }
  glm::ivec3 grid_dims() const { return dims_; }
  double time() const { return time_; }
  uint64_t substeps() const { return substep_; }
  /// Kinetic plus potential energy of the snow [J] (mpm::mechanical_energy from the grid's lowest corner) at the
  /// end of the last advance that reached its end in a closed system (no moving collider); NaN before.
  double energy() const { return energy_; }
  /// The energy watchdog's reference [J]: the energy at seeding, or after the last set_material / set_colliders
  /// (edits do work on the snow) at the next check; NaN until then and while the watchdog stands aside (a moving
  /// collider, rigid bodies or a coupled solver: `--stats` then reported a growth that nothing checked, sweep
  /// 2026-11-29).
  double energy_reference() const {
    return energy_watched() ? energy_reference_ : std::numeric_limits<double>::quiet_NaN();
  }
  /// Particle updates so far, up to the last status read, whose step inverted the particle's deformation gradient
  /// (det(I + dt grad v) <= 0: the explicit step was too long for the local velocity gradient). Not an error: the
  /// state stays finite, but such a particle's F (and J_P) no longer describes a physical deformation.
  uint64_t inversions() const { return inversions_; }
  gl::PassTimer& timer() { return timer_; }

  std::vector<GpuParticle> download_particles() const { return particles_.read<GpuParticle>(); }
  /// The grid accumulators and velocities of the whole grid, indexed x-fastest over grid_dims() (tests): the grid
  /// window's nodes where it stands now, zero elsewhere.
  std::vector<GpuGridNode> download_grid() const;
  std::vector<GpuGridVelocity> download_grid_velocities() const;
  /// Nodes per axis of the grid window (the capacity of the grid buffers; docs/snow-pipeline.md, "Grid window"),
  /// the bytes of the grid buffers, and how often advance() has grown the window.
  glm::ivec3 window_dims() const { return window_; }
  size_t grid_bytes() const { return grid_.size() + grid_vel_.size() + block_flags_.size() + block_list_.size(); }
  int window_growths() const { return window_growths_; }
  /// Grows the grid window to at least `nodes` per axis now (at most the grid; tests: a window of the whole grid
  /// is the dense grid of old). Throws as the constructor when the window exceeds one storage binding.
  void reserve_window(const glm::ivec3& nodes) { grow_window(glm::min(nodes, dims_)); }
  std::vector<GpuVelocityGradient> download_velocity_gradients() const {
    return velgrad_.read<GpuVelocityGradient>();
  }
  /// APIC affine velocities C_p [1/s] (zero with PIC/FLIP).
  std::vector<GpuVelocityGradient> download_affine() const { return affine_.read<GpuVelocityGradient>(); }
  /// The sort of the last chunk sorted (tests; needs ParticleToGrid::kSorted): each particle's key (the hashed
  /// stencil base, shaders/mpm/cell_sort.comp, < sort_table()) and the particle of each sorted slot.
  std::vector<uint32_t> download_sort_keys() const { return sort_keys_.read<uint32_t>(); }
  std::vector<uint32_t> download_sort_order() const { return sort_order_.read<uint32_t>(); }
  uint32_t sort_table() const { return sort_table_; }

  /// Overwrites the APIC affine velocities (tests).
  void upload_affine(const std::vector<GpuVelocityGradient>& c);
  /// Particles per chunk of a particle pass (see for_each_chunk): by default the most that one storage binding
  /// exposes (1,048,576 on llvmpipe's 128 MiB). A smaller count, a multiple of
  /// GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, runs the chunked path on small sets (tests); results are
  /// bit-identical either way. Throws std::invalid_argument.
  void set_chunk_particles(uint32_t n);
  uint32_t chunk_particles() const { return chunk_; }
  /// Overwrites the particle state (tests, resets, checkpoint restores); the next step follows their largest speed
  /// and hardening exp(xi (1 - J_P)) (step_limits()).
  void upload_particles(const std::vector<GpuParticle>& p);

 private:
  // Checkpoints (mpm/state.h) read and restore the clocks, limits and counters below.
  friend void save_state(const Solver& solver, BinaryWriter& out);
  friend void restore_state(Solver& solver, BinaryReader& in);
  friend void put_rigid(const Solver& solver, const std::vector<RigidCollider>& bodies, BinaryWriter& out);
  friend void get_rigid(Solver& solver, BinaryReader& in);

  /// What a fenced read-back of the step state holds (one staging slot).
  struct Readback {
    GpuStatus status;
    GpuStep step;
    /// The snow's kinetic plus potential energy summed on the GPU when the read-back was recorded [J] (+inf when the
    /// fixed-point sum overflowed; NaN while the energy watchdog is off).
    double energy = std::numeric_limits<double>::quiet_NaN();
  };
  void bind() const;
  void bind_step() const;
  /// Sets the grid window's box from `particles` (CPU, conservative for either kernel), grows the window when the
  /// box needs it and uploads the window state (GpuStep's window fields) and the status's empty box.
  void place_window(const std::vector<GpuParticle>& particles);
  /// Reallocates the grid buffers for a window of at least `need` nodes per axis (with room to grow, at most the
  /// grid), uploads the uniform block and clears the step state's request. Throws NumericalError past one storage
  /// binding.
  void grow_window(const glm::ivec3& need);
  /// Grows the window when the read-back step state `step` carries a request that the window does not meet yet.
  void grow_on_request(const GpuStep& step);
  /// Resets the status words the CPU takes over (error record, reductions, counts), keeping the stencil box that
  /// the next window placement folds.
  void reset_status();
  /// A grid buffer (GpuGridNode or GpuGridVelocity) read back into the whole grid's indexing.
  template <class T>
  std::vector<T> download_window(const gl::Buffer& buffer) const;
  void upload_params();
  void upload_step(double dt, double end, uint32_t budget);
  void upload_collider_points();
  void bind_rigid() const;
  /// Uploads the rigid bodies' double state and their float copies from rigid_states_.
  void upload_rigid_states();
  /// solid_speed_ from the colliders and the rigid bodies as set; uploaded with the next advance's step state.
  void update_solid_speed();
  /// Reads the GPU-moved rigid states back into rigid_states_ when the step pass has moved them (blocking).
  void sync_rigid_states() const;
  /// The impulse sums' words as they stand on the GPU (12 per body; blocking read).
  std::vector<uint32_t> download_impulse_words() const;
  void build_dispatch_args();
  /// Issues one GPU-resident substep: the step pass, then every pass with indirect dispatch.
  void issue_substep();
  /// Copies the status, the step state and the collider points into staging slot `slot` behind a fence.
  gl::InFlight record(size_t slot);
  Readback read(const gl::InFlight& f) const;
  /// Keeps the impulse sums staged with `f` in staged_impulses_ (after f's fence has been waited for).
  void read_impulses(const gl::InFlight& f);
  /// Takes over a read-back's time, substep count and CFL inputs, poses the colliders at that time; throws
  /// NumericalError on an error.
  void apply(const Readback& r);
  [[noreturn]] void throw_failure(const GpuStatus& s) const;
  /// The energy watchdog (MpmSettings::max_energy_growth): takes `energy` [J] (Readback::energy of the advance's
  /// final read-back) as energy() and throws NumericalError when the snow of a closed system has gained energy.
  /// Called when an advance ends.
  void check_energy(double energy);
  /// True while nothing does work on the snow (no moving collider, rigid body or coupled solver): the energy
  /// watchdog is on, and each read-back carries the energy summed by energy.comp.
  bool energy_watched() const { return closed_ && rigid_.empty() && !coupled_; }
  /// Dispatches energy.comp over all particles into energy_sum_ (after zeroing it).
  void sum_energy();
  void upload_materials();
  void barrier() const;
  /// Runs a particle pass over every particle, chunk by chunk: particles_ and velgrad_ bound in ranges of at most
  /// chunk_ particles (one SSBO binding may expose only GL_MAX_SHADER_STORAGE_BLOCK_SIZE bytes).
  void for_each_chunk(gl::Program& program);
  /// Binds the particle buffers' ranges of the chunk [first, first + n) (see for_each_chunk).
  void bind_chunk(uint32_t first, uint32_t n);
  /// Runs a particle pass over the bound chunk [first, first + n) (indirect during GPU-resident substeps).
  void dispatch_chunk(gl::Program& program, uint32_t first, uint32_t n);
  /// Sorted particle-to-grid of the bound chunk: counting sort by hashed stencil (cell_sort.comp, gl::Scan), then p2g.comp
  /// with MPM_P2G_SORTED.
  void sorted_particle_to_grid(uint32_t first, uint32_t n);
  double cfl_time_step(double max_speed, double max_hardening);
  /// cfl_time_step from the largest speed and hardening exp(xi (1 - J_P)) of `particles` (seeded, uploaded).
  double cfl_time_step_of(const std::vector<GpuParticle>& particles);

  MpmSettings settings_;
  gl::ColliderBuffer colliders_;
  glm::dvec3 gravity_;
  FixedPointScales scales_;
  glm::ivec3 dims_;
  uint32_t count_;
  uint32_t chunk_ = 0;  ///< particles per chunk of a particle pass (see for_each_chunk)
  bool indirect_ = false;  ///< passes take their group counts from dispatch_args_ (GPU-resident substeps)
  bool pending_ = false;   ///< the status holds reductions of a substep not yet folded into step_limits()
  uint32_t arg_words_ = 0; ///< live words of dispatch_args_
  double dt_ = 0, time_ = 0;
  uint64_t substep_ = 0;
  uint64_t checked_substep_ = 0;  ///< substep_ at the last status read
  uint64_t inversions_ = 0;       ///< see inversions()
  StepLimits limits_;
  double solid_speed_ = 0;  ///< fastest collider or rigid-body point [m/s]; the CFL step follows it (cfl_time_step)
  bool coupled_ = false;  ///< see set_coupled()
  bool closed_ = false;  ///< no collider moves: nothing does work on the snow (the energy watchdog is on)
  double energy_ = std::numeric_limits<double>::quiet_NaN();
  double energy_reference_ = std::numeric_limits<double>::quiet_NaN();
  float energy_scale_ = 1.0f;  ///< quanta per joule of energy.comp's sums (energy_scale, set from the seeded snow)
  gl::Buffer energy_sum_;      ///< energy.comp's GpuEnergySum
  gl::Program energy_pass_;
  gl::Buffer particles_, grid_, grid_vel_, velgrad_, materials_, status_, params_;
  gl::Buffer step_, wave_inputs_, dispatch_args_, collider_points_, staging_;
  gl::Buffer affine_;  ///< APIC C_p per particle (GpuVelocityGradient layout) [1/s]; zero until the first G2P
  // Rigid bodies: shapes and velocities as set; the double states as of the last sync (the GPU's are newer while
  // rigid_on_gpu_ is set: the step pass moves them).
  std::vector<RigidCollider> rigid_;
  std::vector<double> rigid_radii_;  ///< bounding radius of each body about its position [m]
  mutable std::vector<GpuRigidState> rigid_states_;
  mutable bool rigid_on_gpu_ = false;
  gl::Buffer rigid_bodies_, rigid_planes_, rigid_impulses_, rigid_state_;
  StagedRead staged_impulses_;  ///< the impulse sums read with the last advance's final status
  gl::Program grid_update_rigid_;  ///< grid_update.comp with MPM_RIGID; built at the first non-empty set
  gl::Program p2g_, p2g_mass_, init_volume_, grid_update_, g2p_, particle_update_, step_pass_;
  gl::Program block_args_pass_;
  gl::Program window_pass_;   ///< window.comp: places the grid window before a substep the CPU issues
  glm::ivec3 window_{0};      ///< nodes per axis of the grid window (the grid buffers' capacity)
  int window_growths_ = 0;
  /// Particles sorted by the hashed key of their stencil for the sorted particle-to-grid
  /// (MpmSettings::particle_to_grid): key and rank per particle, per-key counts scanned to first slots
  /// (sort_table_ + 1 entries), the sorted order; sized for one chunk, sorted again every substep.
  gl::Buffer sort_keys_, sort_ranks_, sort_starts_, sort_order_;
  uint32_t sort_table_ = 0;  ///< keys of the sort: a power of two >= 2 particles per chunk (never the grid's size)
  gl::Scan sort_scan_;
  gl::Program sort_count_, sort_scatter_, p2g_sorted_;
  /// Active blocks (shaders/mpm/blocks.glsl): a flag per block, the list particle-to-grid fills, the grid update's
  /// dispatch arguments.
  gl::Buffer block_flags_, block_list_, block_args_;
  gl::PassTimer timer_;
};

}  // namespace firn::mpm

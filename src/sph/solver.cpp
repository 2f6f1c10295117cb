#include "sph/solver.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/bindings.h"
#include "gl/sync.h"
#include "sph/gpu_upload.h"
#include "sph/seeding.h"

namespace firn::sph {
namespace {

constexpr uint32_t kMaxParticles = 1u << 22;

uint32_t checked_count(const std::vector<GpuParticle>& particles) {
  if (particles.empty()) throw std::invalid_argument("sph::Solver: no particles");
  if (particles.size() > kMaxParticles)
    throw std::invalid_argument("sph::Solver: " + std::to_string(particles.size()) +
                                " particles; allowed: at most 2^22");
  return static_cast<uint32_t>(particles.size());
}

}  // namespace

Solver::Solver(const SphSettings& settings, std::vector<Collider> colliders, const glm::dvec3& gravity,
               const std::vector<GpuParticle>& particles)
    : settings_(settings),
      colliders_(std::move(colliders)),
      gravity_(gravity),
      count_(checked_count(particles)),
      particles_{gl::Buffer::from(particles), gl::Buffer(particles.size() * sizeof(GpuParticle))},
      positions_(particles.size() * sizeof(glm::vec4)),
      boundary_(particles.size() * sizeof(GpuBoundaryTerms)),
      sort_(count_),
      regions_(sizeof(GpuRegion) * std::max<size_t>(1, settings.regions.size())),
      status_(gl::Buffer::from(std::vector<GpuStatus>{cleared_status()})),
      params_(sizeof(GpuParams)),
      step_state_(sizeof(GpuStep)),
      collider_points_(sizeof(glm::dvec4)),
      reorder_(gl::Program::compute("sph/reorder.comp")),
      density_(gl::Program::compute("sph/density.comp")),
      forces_(gl::Program::compute("sph/forces.comp")),
      integrate_(gl::Program::compute("sph/integrate.comp")),
      neighbour_list_(gl::Program::compute("sph/neighbour_list.comp")),
      loads_(gl::Program::compute("sph/loads.comp")),
      step_pass_(gl::Program::compute("sph/step.comp")),
      bodies_gpu_(sizeof(GpuRigidBody)),
      body_planes_(sizeof(glm::vec4)),
      body_impulses_(12 * sizeof(uint32_t)),
      body_states_(sizeof(GpuRigidState)) {
  // The lists may be larger than one storage binding: the two passes then run in chunks of particles whose lists fit
  // (list_chunk_), each binding its range.
  const size_t per_particle = size_t(settings_.neighbour_list_stride) * sizeof(uint32_t);
  if (per_particle > 0) {
    neighbour_lists_ = gl::Buffer(size_t(count_) * per_particle);
    const size_t fit = gl::max_storage_block_bytes() / per_particle;
    // Chunks start at an aligned offset and hold whole work groups, so that no invocation of one chunk reaches a
    // particle of the next (it would sum that particle's body and field reactions twice).
    const size_t offset_align = gl::storage_offset_alignment() / std::gcd(per_particle, gl::storage_offset_alignment());
    const size_t align = std::lcm(std::max<size_t>(1, offset_align), size_t{SPH_LOCAL_SIZE});
    list_chunk_ = uint32_t(std::min<size_t>(count_, fit / align * align));
  }
  if (settings_.pressure_solver == PressureSolver::kDfsph) {
    dfsph_predict_ = gl::Program::compute("sph/dfsph_predict.comp");
    dfsph_correct_ = gl::Program::compute("sph/dfsph_correct.comp");
    dfsph_start_ = gl::Program::compute("sph/dfsph_start.comp");
    dfsph_reactions_ = gl::Program::compute("sph/dfsph_reactions.comp");
    solve_ = gl::Buffer::from(std::vector<GpuPressureSolve>(1));
    solve_args_ = gl::Buffer::from(std::vector<glm::uvec4>(chunk_count()));
    // Per sorted slot the solve's terms, then its kappa / rho^2 and gradient correction L (one uvec4 each;
    // pressure_solve.glsl).
    solver_terms_ = gl::Buffer(size_t(count_) * 2 * sizeof(glm::uvec4));
    density_.set("u_gradient_correction", static_cast<float>(cubic_gradient_correction(settings_)));
    const auto relaxation = static_cast<float>(dfsph_relaxation(settings_));
    density_.set("u_relaxation", relaxation);
    dfsph_predict_.set("u_relaxation", relaxation);
  }
  closed_tank_ = is_closed_tank();
  coupling_sums_ = explicit_coupling_sums(settings_);
  if (settings_.pressure_solver == PressureSolver::kDfsph)
    head_stiffness_ = settings_.rest_density * dfsph_pressure_stiffness(settings_);
  const auto regions = to_gpu(settings_.regions, settings_.h());
  if (!regions.empty()) regions_.write(regions);
  for (const GpuParticle& p : particles) mass_ += p.x_m.w;
  upload_params();
  start_from(particles);
}

void Solver::start_from(const std::vector<GpuParticle>& particles) {
  double v0 = 0;
  double low = std::numeric_limits<double>::infinity(), high = -low;  // potential -g . x [J/kg]
  for (const GpuParticle& p : particles) {
    v0 = std::max(v0, double(glm::length(glm::vec3(p.v_rho))));
    const double potential = -glm::dot(gravity_, glm::dvec3(glm::vec3(p.x_m)));
    low = std::min(low, potential);
    high = std::max(high, potential);
  }
  // The next step's dt follows from the particles' speeds, extent and gravity, as if a step had reduced them.
  stepper_.max_speed = v0;
  stepper_.max_accel = glm::length(gravity_);
  const bool dfsph = settings_.pressure_solver == PressureSolver::kDfsph;
  stepper_.head = dfsph && !particles.empty() ? high - low : 0.0;  // WCSPH reduces no head (integrate.comp)
  choose_time_step(stepper_.max_speed, stepper_.max_accel, stepper_.head);
  set_time_step(limits_.dt);  // passes called one by one (tests) run with this dt
}

size_t Solver::gpu_bytes() const {
  return particles_[0].size() + particles_[1].size() + positions_.size() + boundary_.size() + sort_.gpu_bytes() +
         colliders_.gpu_bytes() + regions_.size() + status_.size() + params_.size() + bodies_gpu_.size() +
         body_planes_.size() + body_impulses_.size() + body_states_.size() + field_fraction_.size() +
         field_reaction_.size() + field_motion_.size() + neighbour_lists_.size() + solve_.size() + solve_args_.size() +
         solver_terms_.size();
}

uint32_t Solver::chunk_count() const {
  const uint32_t chunk = settings_.neighbour_list_stride > 0 ? list_chunk_ : count_;
  return (count_ + chunk - 1) / chunk;
}

void Solver::bind() const {
  particles().bind_storage(SPH_BIND_PARTICLES);
  particles_[1 - current_].bind_storage(SPH_BIND_PARTICLES_OUT);
  positions_.bind_storage(SPH_BIND_POSITIONS);
  boundary_.bind_storage(SPH_BIND_BOUNDARY);
  sort_.cell_start().bind_storage(SPH_BIND_CELL_START);
  sort_.order().bind_storage(SPH_BIND_ORDER);
  colliders_.bind(SPH_BIND_COLLIDERS);
  regions_.bind_storage(SPH_BIND_REGIONS);
  status_.bind_storage(SPH_BIND_STATUS);
  step_state_.bind_storage(SPH_BIND_STEP);
  bodies_gpu_.bind_storage(SPH_BIND_BODIES);
  body_planes_.bind_storage(SPH_BIND_BODY_PLANES);
  body_impulses_.bind_storage(SPH_BIND_BODY_IMPULSES);
  body_states_.bind_storage(SPH_BIND_BODY_STATES);
  field_fraction_.bind_storage(SPH_BIND_FIELD_FRACTION);
  field_reaction_.bind_storage(SPH_BIND_FIELD_REACTION);
  field_motion_.bind_storage(SPH_BIND_FIELD_MOTION);
  if (settings_.pressure_solver == PressureSolver::kDfsph) {
    solve_.bind_storage(SPH_BIND_PRESSURE_SOLVE);
    solver_terms_.bind_storage(SPH_BIND_SOLVER_TERMS);
    solve_args_.bind_storage(SPH_BIND_SOLVE_ARGS);
  }
  params_.bind_uniform(SPH_BIND_PARAMS);
}

void Solver::barrier() const { glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_UNIFORM_BARRIER_BIT); }

void Solver::upload_params() {
  GpuParams p = make_params(settings_, gravity_, count_, sort_.table_size(), colliders_.count(),
                            static_cast<uint32_t>(settings_.regions.size()));
  p.step.w = static_cast<uint32_t>(bodies_.size());
  p.domain_max.w = static_cast<float>(erosion_);
  if (field_) {
    p.step.y |= SPH_FLAG_SOLID_FIELD;
    p.field_origin_h = glm::vec4(glm::vec3(field_->origin), static_cast<float>(field_->spacing));
    p.field_dims = glm::uvec4(glm::uvec3(field_->dims), std::bit_cast<uint32_t>(static_cast<float>(field_->reaction_scale)));
  }
  params_.upload(0, sizeof p, &p);
}

void Solver::set_solid_field(const SolidFieldGrid& grid) {
  if (!(grid.spacing > 0.0) || !(grid.reaction_scale > 0.0) || !std::isfinite(grid.spacing) ||
      !std::isfinite(grid.reaction_scale) || glm::any(glm::lessThan(grid.dims, glm::ivec3(1))))
    throw std::invalid_argument("sph::Solver::set_solid_field: spacing and reaction scale must be > 0, counts >= 1");
  const size_t nodes = size_t(grid.dims.x) * size_t(grid.dims.y) * size_t(grid.dims.z);
  if (6 * sizeof(uint32_t) * nodes > gl::max_storage_block_bytes())
    throw std::invalid_argument("sph::Solver::set_solid_field: " + std::to_string(nodes) +
                                " nodes; allowed: at most " +
                                std::to_string(gl::max_storage_block_bytes() / (6 * sizeof(uint32_t))) +
                                " (the reaction sums in one storage binding)");
  field_ = grid;
  field_fraction_ = gl::Buffer(nodes * sizeof(float));
  field_reaction_ = gl::Buffer(nodes * 6 * sizeof(uint32_t));
  field_motion_ = gl::Buffer(nodes * sizeof(glm::vec4));
  upload_params();
}

void Solver::set_time_step(double dt) {
  stepper_.dt = dt;
  stepper_.dt_f = static_cast<float>(dt);
  stepper_.speed_limit = static_cast<float>(settings_.h() / dt);
  stepper_.step = static_cast<uint32_t>(step_);
  stepper_.flags |= SPH_STEP_RUN;
  upload_step(time_, 0.0, 0, true);
}

bool Solver::is_closed_tank() const {
  bool closed = true;  // only boundary slabs as regions and no moving collider: nothing does work on the water
  for (const Region& r : settings_.regions) closed &= r.action == RegionAction::kBoundary;
  return closed && !coupled_ && !any_moving(colliders_.colliders()) && bodies_.empty();
}

void Solver::set_colliders(std::vector<Collider> at_zero) {
  colliders_.set(std::move(at_zero), time_);
  closed_tank_ = is_closed_tank();
  ++energy_epoch_;  // the energy reference restarts at the next step
  upload_params();  // the collider count is in the uniform block
}

void Solver::set_fluid(double viscosity, double artificial_viscosity, double surface_tension, double sound_speed) {
  settings_.viscosity = viscosity;
  settings_.artificial_viscosity = artificial_viscosity;
  settings_.surface_tension = surface_tension;
  settings_.sound_speed = sound_speed;
  choose_time_step(limits_.max_speed, limits_.max_accel, limits_.head);
  upload_params();
}

void Solver::sort() {
  bind();
  sort_.sort(settings_.sort, timer_);
  bind();
  {
    gl::ScopedPass t(timer_, "reorder");
    reorder_.dispatch_1d(count_, SPH_LOCAL_SIZE);
    barrier();
  }
  current_ = 1 - current_;
  unsorted_ = false;
}

void Solver::dispatch_with_lists(gl::Program& program, bool indirect) {
  const uint32_t stride = settings_.neighbour_list_stride;
  program.set("u_list_stride", stride);
  const uint32_t chunk = stride > 0 ? list_chunk_ : count_;
  for (uint32_t first = 0, c = 0; first < count_; first += chunk, ++c) {
    const uint32_t n = std::min(chunk, count_ - first);
    if (stride > 0)
      neighbour_lists_.bind_storage_range(SPH_BIND_NEIGHBOUR_LISTS, size_t(first) * stride * sizeof(uint32_t),
                                          size_t(n) * stride * sizeof(uint32_t));
    program.set("u_first", first);
    if (indirect)
      program.dispatch_indirect(solve_args_, sizeof(glm::uvec4) * c);
    else
      program.dispatch_1d(n, SPH_LOCAL_SIZE);
  }
}

void Solver::set_list_chunk(uint32_t particles) {
  const size_t bytes = size_t(particles) * settings_.neighbour_list_stride * sizeof(uint32_t);
  if (particles == 0 || particles % SPH_LOCAL_SIZE != 0 || bytes % gl::storage_offset_alignment() != 0 ||
      particles > list_chunk_)
    throw std::invalid_argument("sph::Solver::set_list_chunk: " + std::to_string(particles) +
                                " particles; allowed: a multiple of " + std::to_string(SPH_LOCAL_SIZE) +
                                " with aligned list offsets, at most " + std::to_string(list_chunk_));
  list_chunk_ = particles;
  // DFSPH's indirect dispatch arguments: one per chunk.
  if (settings_.pressure_solver == PressureSolver::kDfsph)
    solve_args_ = gl::Buffer::from(std::vector<glm::uvec4>(chunk_count()));
}

void Solver::density() {
  bind();
  gl::ScopedPass t(timer_, "density");
  dispatch_with_lists(density_);
  barrier();
}

void Solver::forces() {
  bind();
  gl::ScopedPass t(timer_, "forces");
  dispatch_with_lists(forces_);
  barrier();
}

void Solver::pressure_solve(uint32_t mode) {
  bind();
  gl::ScopedPass t(timer_, mode == SPH_SOLVE_DENSITY ? "density solve" : "divergence solve");
  // Every solve is issued max_iterations rounds; the GPU empties those after convergence. Issuing fewer (4 k + 8 or
  // 4 k + 32, k the last read step's iterations) saved up to 6 ms per step on llvmpipe (about 10 us of CPU per
  // empty dispatch and barrier) but let solves stop above the bound whenever the count jumped: 118 (or 72) of the
  // 600 solves of a resting column against 32 (docs/water.md "DFSPH"). The stop decision is taken inside the
  // prediction (dfsph_check.glsl), so a round is two dispatches and two barriers.
  const uint32_t rounds = settings_.max_iterations;
  // The check's uniforms, in both programs that include dfsph_check.glsl (the start sets the group counts).
  for (gl::Program* p : {&dfsph_start_, &dfsph_predict_}) {
    p->set("u_max_iterations", rounds);
    // The density solve corrects at least min_iterations times, the divergence solve only above its bound
    // (SphSettings::min_iterations; docs/water.md "Small steps").
    p->set("u_min_iterations", mode == SPH_SOLVE_DENSITY ? std::min(rounds, settings_.min_iterations) : 0u);
    // Both bounds at most cfl / 2: a residual e left by one step is corrected in the next one, which moves the
    // particle about e s, and the step moves it at most cfl s. Looser, the correction outran the step: at cfl 0.001
    // each correction sped the water up, the CFL step shrank, and the next correction of the same residual was faster
    // still (the hydrostatic scene ended on energy growth at 0.03 s; docs/water.md "Small steps"). The defaults (cfl
    // 0.2, errors 0.001 and 0.01) are below it.
    const double cap = 0.5 * settings_.cfl;
    p->set("u_max_error", static_cast<float>(std::min(cap, settings_.max_density_error)));
    p->set("u_max_particle_error", static_cast<float>(std::min(cap, settings_.max_particle_density_error)));
    p->set("u_chunk", settings_.neighbour_list_stride > 0 ? list_chunk_ : count_);
    p->set("u_chunks", chunk_count());
  }
  dfsph_predict_.set("u_mode", mode);
  dfsph_correct_.set("u_mode", mode);
  dfsph_start_.dispatch_1d(1, 1);
  gl::dispatch_args_barrier();
  dfsph_correct_.set("u_warm", 1u);
  dispatch_with_lists(dfsph_correct_);
  barrier();
  dfsph_correct_.set("u_warm", 0u);
  // `rounds` corrections, each after a prediction that found the error above the bound, and one last prediction for
  // the final error: the GPU turns the remaining dispatches into empty ones once converged.
  for (uint32_t k = 0; k <= rounds; ++k) {
    dispatch_with_lists(dfsph_predict_, true);
    gl::dispatch_args_barrier();  // the prediction's terms and, from its last group, the next dispatches' sizes
    if (k == rounds) break;
    dispatch_with_lists(dfsph_correct_, true);
    barrier();
  }
}

void Solver::integrate() {
  bind();
  gl::ScopedPass t(timer_, "integrate");
  integrate_.dispatch_1d(count_, SPH_LOCAL_SIZE);
  barrier();
}

void Solver::issue_step() {
  if (unsorted_) sort();  // particles set by the caller (construction, upload, restore)
  step_pass(SPH_STEP_BEGIN);
  density();
  const bool dfsph = settings_.pressure_solver == PressureSolver::kDfsph;
  if (dfsph) pressure_solve(SPH_SOLVE_DIVERGENCE);
  forces();
  if (dfsph) {
    pressure_solve(SPH_SOLVE_DENSITY);
    if (!bodies_.empty()) {  // (the solid field takes its reactions in the solves: dfsph_correct.comp)
      bind();
      gl::ScopedPass t(timer_, "solid reactions");
      dfsph_reactions_.dispatch_1d(count_, SPH_LOCAL_SIZE);
      barrier();
    }
  }
  integrate();
  // Sorted at the end of the step: the next step's neighbour search needs it, and between steps the slots, the cell
  // table and the positions agree. In a step that does not run, the particles are already sorted by their keys and
  // the sort by (key, slot) leaves every one where it is.
  sort();
  step_pass(SPH_STEP_FOLD);
}

std::vector<std::vector<uint32_t>> Solver::neighbour_ids(uint32_t max_per_particle) {
  const uint32_t stride = max_per_particle + 1;
  gl::Buffer lists(sizeof(uint32_t) * stride * count_);
  bind();
  lists.bind_storage(SPH_BIND_NEIGHBOURS);
  neighbour_list_.set("u_stride", stride);
  neighbour_list_.dispatch_1d(count_, SPH_LOCAL_SIZE);
  barrier();
  const auto flat = lists.read<uint32_t>();
  std::vector<std::vector<uint32_t>> out(count_);
  for (uint32_t s = 0; s < count_; ++s) {
    const uint32_t n = flat[size_t(s) * stride];
    if (n > max_per_particle)
      throw std::runtime_error("sph::Solver::neighbour_ids: particle slot " + std::to_string(s) + " has " +
                               std::to_string(n) + " neighbours; allowed: at most " +
                               std::to_string(max_per_particle));
    out[s].assign(flat.begin() + size_t(s) * stride + 1, flat.begin() + size_t(s) * stride + 1 + n);
  }
  return out;
}

std::vector<SolidLoad> Solver::solid_loads() {
  const size_t solids = colliders_.count() + 6 + settings_.regions.size() + bodies_.size();
  gl::Buffer words(sizeof(uint32_t) * 12 * solids);
  words.write(std::vector<uint32_t>(12 * solids, 0u));
  bind();
  words.bind_storage(SPH_BIND_LOADS);
  loads_.dispatch_1d(count_, SPH_LOCAL_SIZE);
  barrier();
  const auto w = words.read<uint32_t>();
  std::vector<SolidLoad> out(solids);
  for (size_t k = 0; k < solids; ++k)
    for (int c = 0; c < 6; ++c) {
      const size_t i = 2 * (6 * k + c);
      const auto fixed = static_cast<int64_t>((uint64_t(w[i + 1]) << 32) | w[i]);
      (c < 3 ? out[k].force : out[k].torque)[c % 3] = double(fixed) / SPH_LOAD_SCALE;
    }
  return out;
}

SurfaceMesh Solver::surface_mesh(const SurfaceMeshSettings& s) {
  if (std::abs(s.kernel_radius - settings_.h()) > 1e-12 * settings_.h())
    throw std::invalid_argument("sph::Solver::surface_mesh: kernel radius " + std::to_string(s.kernel_radius) +
                                " m; allowed: the water's h = " + std::to_string(settings_.h()) + " m");
  if (unsorted_) sort();  // the cell table of the particles as they are
  if (!mesher_) mesher_.emplace();
  bind();
  gl::ScopedPass t(timer_, "surface mesh");
  return mesher_->extract(count_, s);
}

void Solver::upload_particles(const std::vector<GpuParticle>& p) {
  if (p.size() != count_) throw std::invalid_argument("sph::Solver::upload_particles: particle count changed");
  if (unread_) check_status();  // the step state's CPU copy must be the GPU's before start_from rewrites it
  particles().write(p);
  unsorted_ = true;  // sorted before the next step; until then the slots stay as given
  start_from(p);     // the energy watchdog keeps its reference: the water's energy changes only as it did
}

}  // namespace firn::sph

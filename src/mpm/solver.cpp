#include "mpm/solver.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/bindings.h"
#include "core/error.h"
#include "gl/loader.h"
#include "mpm/diagnostics.h"
#include "mpm/gpu_upload.h"

namespace firn::mpm {
namespace {

gl::Program build(const char* file, std::vector<std::string> defines = {}) {
  return gl::Program::compute(file, defines);
}

/// The defines that select the transfer and its kernel in particle-to-grid, grid-to-particle and the sort.
std::vector<std::string> transfer_defines(const MpmSettings& s) {
  std::vector<std::string> d;
  if (has_affine(s.transfer)) d.push_back("#define MPM_APIC");
  if (s.transfer == Transfer::kMls) d.push_back("#define MPM_MLS");
  if (stencil_kernel(s) == Kernel::kQuadratic) d.push_back("#define MPM_QUADRATIC");
  return d;
}

/// `s` with ParticleToGrid::kAuto resolved for the current context's renderer.
MpmSettings resolved(MpmSettings s) {
  s.particle_to_grid = resolve_particle_to_grid(s.particle_to_grid, gl::software_renderer(gl::query_context_info()));
  return s;
}

/// Nodes per axis of a grid window with room to grow around `need` nodes (a quarter more and 8 nodes, rounded up to
/// blocks), at most the grid.
glm::ivec3 window_with_room(const glm::ivec3& need, const glm::ivec3& dims) {
  const glm::ivec3 room = (need + need / 4 + 8 + (MPM_BLOCK - 1)) / MPM_BLOCK * MPM_BLOCK;
  return glm::min(room, dims);
}

/// Blocks of MPM_BLOCK^3 nodes covering a grid of `dims` nodes (partial blocks at the far faces).
uint32_t block_count(const glm::ivec3& dims) {
  const glm::ivec3 b = (dims + (MPM_BLOCK - 1)) / MPM_BLOCK;
  return static_cast<uint32_t>(size_t(b.x) * b.y * b.z);
}

}  // namespace

uint32_t particles_per_chunk_limit() {
  const size_t align = std::max<size_t>(1, gl::storage_offset_alignment());
  const size_t fit = gl::max_storage_block_bytes() / std::max(sizeof(GpuParticle), sizeof(GpuVelocityGradient));
  return static_cast<uint32_t>(std::min<size_t>(fit / align * align, std::numeric_limits<uint32_t>::max()));
}

Solver::Solver(const MpmSettings& settings, std::vector<Collider> colliders, const glm::dvec3& gravity,
               const std::vector<GpuParticle>& particles)
    : settings_(resolved(settings)),
      colliders_(std::move(colliders)),
      gravity_(gravity),
      scales_(derive_scales(settings, colliders_.colliders(), gravity)),
      dims_(settings.grid.dims()),
      count_(static_cast<uint32_t>(particles.size())),
      chunk_(particles_per_chunk_limit()),
      particles_(gl::Buffer::from(particles)),
      velgrad_(sizeof(GpuVelocityGradient) * particles.size()),
      materials_(sizeof(GpuMaterial) * std::max<size_t>(1, settings.materials.size())),
      status_(sizeof(GpuStatus)),
      params_(sizeof(GpuParams)),
      step_(sizeof(GpuStep)),
      wave_inputs_(sizeof(glm::dvec2) * std::max<size_t>(1, settings.materials.size())),
      collider_points_(2 * sizeof(glm::dvec4) * std::max<size_t>(1, colliders_.count())),
      affine_(sizeof(GpuVelocityGradient) * particles.size()),
      rigid_bodies_(sizeof(GpuRigidBody)),
      rigid_planes_(sizeof(glm::vec4)),
      rigid_impulses_(12 * sizeof(uint32_t)),
      rigid_state_(sizeof(GpuRigidState)),
      p2g_(build("mpm/p2g.comp", transfer_defines(settings))),
      p2g_mass_(build("mpm/p2g.comp", {"#define P2G_MASS_ONLY"})),
      init_volume_(build("mpm/init_volume.comp")),
      grid_update_(build("mpm/grid_update.comp")),
      g2p_(build("mpm/g2p.comp", transfer_defines(settings))),
      particle_update_(build("mpm/particle_update.comp")),
      step_pass_(build("mpm/step.comp")),
      block_args_pass_(build("mpm/block_args.comp")),
      window_pass_(build("mpm/window.comp")),
      sort_table_(std::bit_ceil(std::max<uint32_t>(2, 2 * std::min(count_, chunk_)))),
      sort_scan_(sort_table_ + 1) {
  block_args_ = gl::Buffer(sizeof(glm::uvec3));
  if (particles.empty()) throw std::invalid_argument("mpm::Solver: no particles");
  if (settings_.thesis_gradient && stencil_kernel(settings_) == Kernel::kQuadratic)
    throw std::invalid_argument("mpm::Solver: thesis_gradient needs the cubic kernel");
  place_window(particles);  // allocates the grid buffers for the window the snow needs
  if (settings_.particle_to_grid != ParticleToGrid::kDirect) {
    const size_t sorted = std::min(count_, chunk_);  // set_chunk_particles only lowers chunk_
    sort_keys_ = gl::Buffer(sorted * sizeof(uint32_t));
    sort_ranks_ = gl::Buffer(sorted * sizeof(uint32_t));
    sort_order_ = gl::Buffer(sorted * sizeof(uint32_t));
    sort_starts_ = gl::Buffer((size_t{sort_table_} + 1) * sizeof(uint32_t));
    std::vector<std::string> defines = transfer_defines(settings_);  // the stencil base depends on the kernel
    sort_count_ = build("mpm/cell_sort.comp", defines);
    sort_count_.set("sort_table", sort_table_);
    sort_scatter_ = build("mpm/cell_sort.comp", {"#define MPM_SORT_SCATTER"});
    defines.push_back("#define MPM_P2G_SORTED");
    p2g_sorted_ = build("mpm/p2g.comp", defines);
  }
  upload_materials();
  upload_params();
  build_dispatch_args();
  update_solid_speed();
  cfl_time_step_of(particles);
  set_time_step(limits_.dt);
  estimate_volumes();
  closed_ = !any_moving(colliders_.colliders());
  const glm::dvec3 datum = lowest_corner(settings_.grid, gravity_);
  if (closed_) energy_reference_ = mechanical_energy(particles, gravity_, datum);
  energy_scale_ = energy_scale(particles, gravity_, datum);
  energy_sum_ = gl::Buffer(sizeof(GpuEnergySum));
  energy_pass_ = build("mpm/energy.comp");  // gravity, grid and scale never change: its uniforms are set once
  energy_pass_.set("u_gravity", glm::vec3(gravity_));
  energy_pass_.set("u_datum", glm::vec3(datum));
  energy_pass_.set("u_energy_scale", energy_scale_);
}

void Solver::bind() const {
  // The particle buffers are bound chunk by chunk in for_each_chunk.
  grid_.bind_storage(MPM_BIND_GRID);
  grid_vel_.bind_storage(MPM_BIND_GRID_VEL);
  colliders_.bind(MPM_BIND_COLLIDERS);
  materials_.bind_storage(MPM_BIND_MATERIALS);
  status_.bind_storage(MPM_BIND_STATUS);
  step_.bind_storage(MPM_BIND_STEP);
  params_.bind_uniform(MPM_BIND_PARAMS);
  block_flags_.bind_storage(MPM_BIND_BLOCK_FLAGS);
  block_list_.bind_storage(MPM_BIND_BLOCK_LIST);
  block_args_.bind_storage(MPM_BIND_BLOCK_ARGS);
  bind_rigid();
}

void Solver::barrier() const {
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_UNIFORM_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
}

void Solver::for_each_chunk(gl::Program& program) {
  for (uint32_t first = 0; first < count_; first += std::min(chunk_, count_ - first)) {
    const uint32_t n = std::min(chunk_, count_ - first);
    bind_chunk(first, n);
    dispatch_chunk(program, first, n);
  }
}

void Solver::bind_chunk(uint32_t first, uint32_t n) {
  particles_.bind_storage_range(MPM_BIND_PARTICLES, size_t{first} * sizeof(GpuParticle),
                                size_t{n} * sizeof(GpuParticle));
  velgrad_.bind_storage_range(MPM_BIND_VELGRAD, size_t{first} * sizeof(GpuVelocityGradient),
                              size_t{n} * sizeof(GpuVelocityGradient));
  affine_.bind_storage_range(MPM_BIND_AFFINE, size_t{first} * sizeof(GpuVelocityGradient),
                             size_t{n} * sizeof(GpuVelocityGradient));
}

void Solver::dispatch_chunk(gl::Program& program, uint32_t first, uint32_t n) {
  program.set("chunk_first", first);
  program.set("chunk_count", n);
  if (indirect_)
    program.dispatch_indirect(dispatch_args_, sizeof(glm::uvec3) * (first / chunk_));
  else
    program.dispatch_linear(n, MPM_LOCAL_SIZE);
}

void Solver::build_dispatch_args() {
  // Live arguments (the step pass writes them) then the template it copies: every chunk of the particle passes
  // (the grid update's come from the active blocks, block_args.comp).
  std::vector<glm::uvec3> args;
  for (uint32_t first = 0; first < count_; first += chunk_) {
    const uint32_t n = std::min(chunk_, count_ - first);
    args.push_back(glm::uvec3(gl::split_groups((n + MPM_LOCAL_SIZE - 1) / MPM_LOCAL_SIZE), 1u));
  }
  arg_words_ = static_cast<uint32_t>(3 * args.size());
  std::vector<glm::uvec3> both(args.size(), glm::uvec3(0));
  both.insert(both.end(), args.begin(), args.end());
  dispatch_args_ = gl::Buffer::from(both);
}

void Solver::upload_params() {
  const GpuParams p = make_params(settings_, scales_, dims_, window_, gravity_, count_, colliders_.count(),
                                  static_cast<uint32_t>(rigid_.size()));
  params_.upload(0, sizeof p, &p);
}

void Solver::upload_materials() {
  materials_.write(to_gpu(settings_.materials));
  wave_inputs_.write(to_gpu_wave_inputs(settings_.materials));
}

void Solver::upload_step(double dt, double end, uint32_t budget) {
  GpuStep s{};
  s.time = time_;
  s.end = end;
  s.dt = dt;
  s.dt_cfl = limits_.dt;
  s.max_speed = limits_.max_speed;
  s.hardening = limits_.hardening;
  s.cfl = settings_.cfl;
  s.h = settings_.grid.spacing;
  s.dt_max = settings_.dt_max;
  s.wave_scale = settings_.thesis_gradient ? settings_.grid.spacing : 1.0;
  s.solid_speed = solid_speed_;
  s.dt_f = static_cast<float>(dt);
  s.speed_limit = static_cast<float>(settings_.grid.spacing / dt);
  s.substep = static_cast<uint32_t>(substep_);
  s.count = static_cast<uint32_t>(substep_);
  s.budget = budget;
  s.taken = 0;
  s.flags = pending_ ? MPM_STEP_PENDING : 0u;
  s.material_count = static_cast<uint32_t>(settings_.materials.size());
  step_.upload(0, offsetof(GpuStep, window_origin), &s);  // the window fields are the GPU's (place_window)
}

void Solver::place_window(const std::vector<GpuParticle>& particles) {
  // Stencil base nodes in double: floor(g) - 1 (cubic) or floor(g + 1/2) - 1 (quadratic), widened by one node each
  // way so that the float rounding of the shaders stays inside. The window then follows window.glsl's rule.
  const double h = settings_.grid.spacing;
  glm::ivec3 lo(std::numeric_limits<int>::max()), hi(std::numeric_limits<int>::min());
  for (const GpuParticle& p : particles) {
    const glm::dvec3 g = (glm::dvec3(glm::vec3(p.x_m)) - settings_.grid.min) / h;
    if (!glm::all(glm::lessThan(glm::abs(g), glm::dvec3(1e9)))) continue;  // non-finite: reported by the passes
    lo = glm::min(lo, glm::ivec3(glm::floor(g - 0.5)) - 2);
    hi = glm::max(hi, glm::ivec3(glm::floor(g + 0.5)));
  }
  if (lo.x > hi.x) lo = hi = glm::ivec3(0);
  const glm::ivec3 wlo = glm::max(lo - 2, glm::ivec3(0)), whi = glm::min(hi + (4 + 1), dims_ - 1);  // 4: the widest stencil
  const glm::ivec3 origin = wlo / MPM_BLOCK * MPM_BLOCK;
  const glm::ivec3 need = glm::max(whi - origin + 1, glm::ivec3(1));
  if (glm::any(glm::greaterThan(need, window_))) grow_window(need);
  const glm::ivec4 fields[4] = {glm::ivec4(origin, 0), glm::ivec4(lo, 0), glm::ivec4(hi, 0), glm::ivec4(need, 0)};
  step_.upload(offsetof(GpuStep, window_origin), sizeof fields, fields);
  reset_status();
  const glm::ivec4 empty[2] = {glm::ivec4(std::numeric_limits<int>::max()), glm::ivec4(std::numeric_limits<int>::min())};
  status_.upload(offsetof(GpuStatus, base_lo), sizeof empty, empty);
}

void Solver::grow_window(const glm::ivec3& need) {
  const glm::ivec3 w = glm::max(window_with_room(need, dims_), window_);
  const size_t nodes = size_t(w.x) * w.y * w.z;
  const size_t bytes = nodes * std::max(sizeof(GpuGridNode), sizeof(GpuGridVelocity));
  const size_t limit = gl::max_storage_block_bytes();
  // The particle passes address the window at random, so it cannot be bound in ranges.
  if (bytes > limit)
    throw InputError("mpm.grid: the snow spans a grid window of " + std::to_string(w.x) + " x " + std::to_string(w.y) +
                     " x " + std::to_string(w.z) + " = " + std::to_string(nodes) + " nodes (of " +
                     std::to_string(dims_.x) + " x " + std::to_string(dims_.y) + " x " + std::to_string(dims_.z) +
                     "), which needs " + std::to_string(bytes >> 20) +
                     " MiB per grid buffer, over this GL implementation's GL_MAX_SHADER_STORAGE_BLOCK_SIZE of " +
                     std::to_string(limit >> 20) + " MiB (" + std::to_string(limit / sizeof(GpuGridNode)) +
                     " nodes); use a larger spacing or less snow");
  window_ = w;
  grid_ = gl::Buffer(sizeof(GpuGridNode) * nodes);  // zero: the accumulators' invariant between substeps
  grid_vel_ = gl::Buffer(sizeof(GpuGridVelocity) * nodes);
  const size_t blocks = block_count(w);
  block_flags_ = gl::Buffer(blocks * sizeof(uint32_t));  // zero: no block listed
  block_list_ = gl::Buffer((1 + blocks) * sizeof(uint32_t));
  upload_params();
  const int32_t ready = 0;  // the step pass may place the window again
  step_.upload(offsetof(GpuStep, window_need) + 3 * sizeof(int32_t), sizeof ready, &ready);
  ++window_growths_;
}

void Solver::reset_status() {
  GpuStatus reset{};
  status_.upload(0, offsetof(GpuStatus, base_lo), &reset);
}

template <class T>
std::vector<T> Solver::download_window(const gl::Buffer& buffer) const {
  glm::ivec4 origin(0);
  step_.download(offsetof(GpuStep, window_origin), sizeof origin, &origin);
  const std::vector<T> window = buffer.read<T>();
  std::vector<T> out(size_t(dims_.x) * dims_.y * dims_.z, T{});
  for (int z = 0; z < window_.z; ++z)
    for (int y = 0; y < window_.y; ++y)
      for (int x = 0; x < window_.x; ++x) {
        const glm::ivec3 n = glm::ivec3(origin) + glm::ivec3(x, y, z);
        if (glm::any(glm::greaterThanEqual(n, dims_))) continue;
        out[size_t(n.x) + size_t(dims_.x) * (size_t(n.y) + size_t(dims_.y) * n.z)] =
            window[size_t(x) + size_t(window_.x) * (size_t(y) + size_t(window_.y) * z)];
      }
  return out;
}

std::vector<GpuGridNode> Solver::download_grid() const { return download_window<GpuGridNode>(grid_); }

std::vector<GpuGridVelocity> Solver::download_grid_velocities() const {
  return download_window<GpuGridVelocity>(grid_vel_);
}

void Solver::set_time_step(double dt) {
  dt_ = dt;
  upload_step(dt, time_, 0);
}

void Solver::upload_particles(const std::vector<GpuParticle>& p) {
  if (p.size() != count_) throw std::invalid_argument("mpm::Solver::upload_particles: particle count changed");
  particles_.write(p);
  place_window(p);  // empties the status, and with it the reductions of a substep not yet folded into the step
  // The next step follows the uploaded particles, as the constructor's does. Left pending, the step pass would fold
  // the emptied status (speed 0, hardening 1) into the first substep's step: particles made faster by an upload
  // crossed more than a cell in it (CFL violation).
  cfl_time_step_of(p);
  pending_ = false;
  checked_substep_ = substep_;
}

double Solver::cfl_time_step_of(const std::vector<GpuParticle>& p) {
  double speed = 0, harden = 1;
  for (const GpuParticle& q : p) {
    const double v = static_cast<double>(glm::length(glm::vec3(q.v_vol)));
    if (std::isfinite(v)) speed = std::max(speed, v);  // a non-finite particle is the first substep's to report
    const float index = q.fe[1].w;  // the shaders' material index, as particle_material() reads it
    const auto material = index >= 0.0f && index < float(settings_.materials.size()) ? static_cast<size_t>(index) : 0;
    // exp(xi (1 - J_P)) as particle_update.comp reduces it: snow compacted before (J_P < 1) is stiffer.
    const double h = std::exp(settings_.materials[material].hardening * (1.0 - double(q.fe[0].w)));
    if (std::isfinite(h)) harden = std::max(harden, h);
  }
  return cfl_time_step(speed, harden);
}

void Solver::clear_grid() {
  gl::ScopedPass t(timer_, "clear_grid");
  grid_.clear();
  block_flags_.clear();  // and no block listed (a test's particle-to-grid without a grid update left some)
  block_list_.clear();
  barrier();
}

void Solver::particle_to_grid() {
  bind();
  if (settings_.particle_to_grid == ParticleToGrid::kDirect) {
    gl::ScopedPass t(timer_, "particle_to_grid");
    for_each_chunk(p2g_);
    barrier();
    return;
  }
  for (uint32_t first = 0; first < count_; first += std::min(chunk_, count_ - first)) {
    const uint32_t n = std::min(chunk_, count_ - first);
    bind_chunk(first, n);
    sorted_particle_to_grid(first, n);
  }
}

void Solver::sorted_particle_to_grid(uint32_t first, uint32_t n) {
  sort_keys_.bind_storage(MPM_BIND_SORT_KEYS);
  sort_ranks_.bind_storage(MPM_BIND_SORT_RANKS);
  sort_starts_.bind_storage(MPM_BIND_SORT_STARTS);
  sort_order_.bind_storage(MPM_BIND_SORT_ORDER);
  {
    // A counting sort by hashed stencil base (the water's hash sort has the same three steps,
    // src/sph/hash_sort.cpp): histogram and ranks, exclusive scan of the histogram (its extra last entry becomes
    // n), scatter to the sorted slots.
    gl::ScopedPass t(timer_, "sort_particles");
    sort_starts_.clear();
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    dispatch_chunk(sort_count_, first, n);
    barrier();
    sort_scan_.run(sort_starts_, sort_table_ + 1);
    dispatch_chunk(sort_scatter_, first, n);
    barrier();
  }
  gl::ScopedPass t(timer_, "particle_to_grid");
  dispatch_chunk(p2g_sorted_, first, n);
  barrier();
}

void Solver::grid_update() {
  bind();
  gl::ScopedPass t(timer_, "grid_update");
  gl::Program& program = rigid_.empty() ? grid_update_ : grid_update_rigid_;
  // One work group per block that particle-to-grid listed (shaders/mpm/blocks.glsl): the arguments come from the
  // list on the GPU (no read-back); with no substep to run (the step pass stopped it) the list is empty.
  block_args_pass_.dispatch_linear(1, 1);
  barrier();
  program.dispatch_indirect(block_args_, 0);
  barrier();
}

void Solver::grid_to_particle() {
  bind();
  gl::ScopedPass t(timer_, "grid_to_particle");
  for_each_chunk(g2p_);
  barrier();
}

void Solver::particle_update() {
  bind();
  gl::ScopedPass t(timer_, "particle_update");
  for_each_chunk(particle_update_);
  barrier();
}

void Solver::estimate_volumes() {
  gl::PassScope scope("estimate_volumes");
  bind();
  grid_.clear();
  barrier();
  for_each_chunk(p2g_mass_);
  barrier();
  for_each_chunk(init_volume_);
  barrier();
  grid_.clear();  // substeps expect zeroed accumulators
  barrier();
}

void Solver::substep(double dt) {
  colliders_.set_time(time_ + dt);
  if (!rigid_.empty()) {
    sync_rigid_states();
    // The step pass's motion (step.comp): velocities from the impulse sums since the set, then the pose.
    const bool taking =
        std::any_of(rigid_.begin(), rigid_.end(), [](const RigidCollider& b) { return b.inverse_mass > 0; });
    const std::vector<RigidImpulse> sums = taking ? decode_rigid_impulses(download_impulse_words())
                                                  : std::vector<RigidImpulse>{};
    for (size_t k = 0; k < rigid_states_.size(); ++k) {
      if (taking) predict_rigid_velocity(rigid_states_[k], sums[k]);
      advance_rigid_state(rigid_states_[k], dt);
    }
    upload_rigid_states();
  }
  set_time_step(dt);
  {
    bind();
    bind_step();
    gl::ScopedPass t(timer_, "window");
    window_pass_.dispatch_linear(1, 1);  // the step pass's window placement, for a substep the CPU issues
    barrier();
  }
  particle_to_grid();  // the accumulators are zero: grid_update (or estimate_volumes) left them so
  grid_update();
  grid_to_particle();
  particle_update();
  time_ += dt;
  ++substep_;
  pending_ = true;
}

}  // namespace firn::mpm

#include "mpm/solver.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/bindings.h"
#include "core/error.h"
#include "mpm/gpu_upload.h"

namespace firn::mpm {
namespace {

/// Substeps between status reads (dt re-evaluation, error checks). One: at an impact the hardening factor
/// exp(xi (1 - J_P)) can grow several-fold within a few substeps, and a dt chosen before it grew is unstable.
constexpr int kSubstepsPerCheck = 1;

gl::Program build(const char* file, std::vector<std::string> defines = {}) {
  return gl::Program::compute(file, defines);
}

}  // namespace

Solver::Solver(const MpmSettings& settings, std::vector<Collider> colliders, const glm::dvec3& gravity,
               const std::vector<GpuParticle>& particles)
    : settings_(settings),
      colliders_(std::move(colliders)),
      gravity_(gravity),
      scales_(derive_scales(settings, colliders_.colliders(), gravity)),
      dims_(settings.grid.dims()),
      count_(static_cast<uint32_t>(particles.size())),
      particles_(gl::Buffer::from(particles)),
      grid_(sizeof(GpuGridNode) * static_cast<size_t>(dims_.x) * dims_.y * dims_.z),
      grid_vel_(sizeof(GpuGridVelocity) * static_cast<size_t>(dims_.x) * dims_.y * dims_.z),
      velgrad_(sizeof(GpuVelocityGradient) * particles.size()),
      materials_(sizeof(GpuMaterial) * std::max<size_t>(1, settings.materials.size())),
      status_(sizeof(GpuStatus)),
      params_(sizeof(GpuParams)),
      p2g_(build("mpm/p2g.comp")),
      p2g_mass_(build("mpm/p2g.comp", {"#define P2G_MASS_ONLY"})),
      init_volume_(build("mpm/init_volume.comp")),
      grid_update_(build("mpm/grid_update.comp")),
      g2p_(build("mpm/g2p.comp")),
      particle_update_(build("mpm/particle_update.comp")) {
  if (particles.empty()) throw std::invalid_argument("mpm::Solver: no particles");
  upload_materials();
  double v0 = 0;
  for (const GpuParticle& p : particles) v0 = std::max(v0, static_cast<double>(glm::length(glm::vec3(p.v_vol))));
  cfl_time_step(v0, 1.0);
  set_time_step(limits_.dt);
  estimate_volumes();
}

void Solver::bind() const {
  particles_.bind_storage(MPM_BIND_PARTICLES);
  grid_.bind_storage(MPM_BIND_GRID);
  grid_vel_.bind_storage(MPM_BIND_GRID_VEL);
  velgrad_.bind_storage(MPM_BIND_VELGRAD);
  colliders_.bind(MPM_BIND_COLLIDERS);
  materials_.bind_storage(MPM_BIND_MATERIALS);
  status_.bind_storage(MPM_BIND_STATUS);
  glBindBufferBase(GL_UNIFORM_BUFFER, MPM_BIND_PARAMS, params_.id());
}

void Solver::barrier() const { glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_UNIFORM_BARRIER_BIT); }

void Solver::upload_params() {
  const GpuParams p = make_params(settings_, scales_, dims_, gravity_, dt_, count_, colliders_.count(),
                                  static_cast<uint32_t>(substep_));
  glBindBuffer(GL_UNIFORM_BUFFER, params_.id());
  glBufferSubData(GL_UNIFORM_BUFFER, 0, sizeof p, &p);
}

void Solver::upload_materials() { materials_.write(to_gpu(settings_.materials)); }

void Solver::set_time_step(double dt) {
  dt_ = dt;
  upload_params();
}

void Solver::clear_grid() {
  gl::ScopedPass t(timer_, "clear_grid");
  grid_.clear();
  barrier();
}

void Solver::particle_to_grid() {
  bind();
  gl::ScopedPass t(timer_, "particle_to_grid");
  p2g_.dispatch_1d(count_, MPM_LOCAL_SIZE);
  barrier();
}

void Solver::grid_update() {
  bind();
  gl::ScopedPass t(timer_, "grid_update");
  grid_update_.dispatch_1d(static_cast<unsigned>(dims_.x * dims_.y * dims_.z), MPM_LOCAL_SIZE);
  barrier();
}

void Solver::grid_to_particle() {
  bind();
  gl::ScopedPass t(timer_, "grid_to_particle");
  g2p_.dispatch_1d(count_, MPM_LOCAL_SIZE);
  barrier();
}

void Solver::particle_update() {
  bind();
  gl::ScopedPass t(timer_, "particle_update");
  particle_update_.dispatch_1d(count_, MPM_LOCAL_SIZE);
  barrier();
}

void Solver::estimate_volumes() {
  bind();
  grid_.clear();
  barrier();
  p2g_mass_.dispatch_1d(count_, MPM_LOCAL_SIZE);
  barrier();
  init_volume_.dispatch_1d(count_, MPM_LOCAL_SIZE);
  barrier();
  grid_.clear();  // substeps expect zeroed accumulators
  barrier();
}

void Solver::substep(double dt) {
  colliders_.move(dt);
  set_time_step(dt);
  particle_to_grid();  // the accumulators are zero: grid_update (or estimate_volumes) left them so
  grid_update();
  grid_to_particle();
  particle_update();
  time_ += dt;
  ++substep_;
}

int Solver::advance(double seconds) {
  return advance_until(time_ + seconds, std::numeric_limits<int>::max()).steps;
}

AdvanceResult Solver::advance_until(double end, int max_substeps) {
  const int groups = std::max(1, max_substeps / kSubstepsPerCheck + (max_substeps % kSubstepsPerCheck != 0));
  AdvanceResult r;
  for (int g = 0; g < groups && before_end(time_, end); ++g) {
    check_status();
    for (int k = 0; k < kSubstepsPerCheck && before_end(time_, end); ++k, ++r.steps)
      substep(even_step(end - time_, limits_.dt));
  }
  r.reached = !before_end(time_, end);
  if (r.reached) {
    check_status();
    timer_.resolve();
  }
  return r;
}

}  // namespace firn::mpm

#include "app/snow_water_exchange.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "common/bindings.h"
#include "gl/sync.h"

namespace firn::app {
namespace {

/// Fixed-point units of the largest single contribution of a particle: 2^40 keeps the 64-bit sums of a few hundred
/// particles per node far from the int64 range and each contribution's rounding at 2^-40 of the largest one.
constexpr double kUnits = 1099511627776.0;
/// Speed whose momentum with the largest mass is kUnits [m/s]: speeds up to 2^22 times it stay in range.
constexpr double kSpeedRef = 64.0;

GpuCouplingParams make_params(const mpm::Solver& snow, const sph::Solver& water, const SnowWaterContact& contact) {
  double m_max = 0, v_max = 0;
  for (const mpm::GpuParticle& p : snow.download_particles()) {
    m_max = std::max(m_max, double(p.x_m.w));
    v_max = std::max(v_max, double(p.v_vol.w));
  }
  const double rho0 = water.settings().rest_density;
  for (const sph::GpuParticle& p : water.download_particles()) {
    m_max = std::max(m_max, double(p.x_m.w));
    v_max = std::max(v_max, double(p.x_m.w) / rho0);
  }
  // A compressed water particle or a stretched snow particle may grow a few times beyond its start volume.
  v_max *= 4.0;
  const mpm::Grid& g = snow.settings().grid;
  const glm::ivec3 dims = snow.grid_dims();
  GpuCouplingParams p;
  p.origin_h = glm::vec4(glm::vec3(g.min), float(g.spacing));
  p.dims = glm::ivec4(dims, dims.x * dims.y * dims.z);
  p.scales = glm::vec4(float(kUnits / m_max), float(kUnits / (m_max * kSpeedRef)), float(kUnits / v_max),
                       float(kUnits * g.spacing / m_max));
  p.contact = glm::vec4(float(contact.friction), float(contact.volume_fraction), float(rho0), 0.0f);
  // An exchange's list holds the nodes its particles touch (27 each) and the last field list's (at most as many).
  const uint64_t touched = 2 * 27ull * (uint64_t(snow.particle_count()) + water.particle_count());
  p.counts = glm::uvec4(snow.particle_count(), water.particle_count(),
                        uint32_t(std::min<uint64_t>(touched, uint64_t(p.dims.w))), 0u);
  return p;
}

void check_contact(const SnowWaterContact& c) {
  if (!(c.friction >= 0.0) || !std::isfinite(c.friction))
    throw std::invalid_argument("snow-water contact: friction " + std::to_string(c.friction) + "; allowed: >= 0");
  if (!(c.volume_fraction >= 0.0 && c.volume_fraction <= 2.0))
    throw std::invalid_argument("snow-water contact: volume fraction " + std::to_string(c.volume_fraction) +
                                "; allowed: [0, 2]");
}

}  // namespace

size_t SnowWaterExchange::max_nodes() {
  return gl::max_storage_block_bytes() / (COUPLING_NODE_WORDS * sizeof(uint32_t));
}

SnowWaterExchange::SnowWaterExchange(mpm::Solver& snow, sph::Solver& water, const SnowWaterContact& contact)
    : snow_(snow), water_(water) {
  check_contact(contact);
  const glm::ivec3 dims = snow.grid_dims();
  const size_t nodes = size_t(dims.x) * size_t(dims.y) * size_t(dims.z);
  if (nodes > max_nodes())
    throw std::invalid_argument("snow-water coupling: the snow grid has " + std::to_string(nodes) +
                                " nodes; allowed: at most " + std::to_string(max_nodes()) +
                                " (the coupling's per-node sums in one storage binding): a coarser or smaller grid");
  params_ = make_params(snow, water, contact);
  params_buffer_ = gl::Buffer(sizeof params_, &params_);
  nodes_ = gl::Buffer(size_t(params_.dims.w) * COUPLING_NODE_WORDS * sizeof(uint32_t));  // zero: no node touched
  list_ = gl::Buffer((1 + size_t(params_.counts.z)) * sizeof(uint32_t));
  field_list_ = gl::Buffer((1 + size_t(params_.counts.z)) * sizeof(uint32_t));  // zero: no field node yet
  deltas_ = gl::Buffer(size_t(params_.dims.w) * 2 * sizeof(glm::vec4));
  p2g_snow_ = gl::Program::compute("coupling/p2g_snow.comp");
  p2g_water_ = gl::Program::compute("coupling/p2g_water.comp");
  contact_ = gl::Program::compute("coupling/contact.comp");
  g2p_snow_ = gl::Program::compute("coupling/g2p_snow.comp");
  g2p_water_ = gl::Program::compute("coupling/g2p_water.comp");
  p2g_field_ = gl::Program::compute("coupling/p2g_snow.comp", {"#define COUPLING_FIELD"});
  field_nodes_ = gl::Program::compute("coupling/field_nodes.comp");
  field_set_ = gl::Program::compute("coupling/field_set.comp");
  const mpm::Grid& g = snow.settings().grid;
  water.set_solid_field({g.min, g.spacing, dims, double(params_.scales.y)});
}

void SnowWaterExchange::bind() {
  params_buffer_.bind_storage(COUPLING_BIND_PARAMS);
  nodes_.bind_storage(COUPLING_BIND_NODES);
  list_.bind_storage(COUPLING_BIND_LIST);
  deltas_.bind_storage(COUPLING_BIND_DELTAS);
  field_list_.bind_storage(COUPLING_BIND_FIELD_LIST);
  water_.solid_field_fraction().bind_storage(SPH_BIND_FIELD_FRACTION);
  water_.solid_field_reaction().bind_storage(SPH_BIND_FIELD_REACTION);
  water_.solid_field_motion().bind_storage(SPH_BIND_FIELD_MOTION);
  water_.particles().bind_storage(SPH_BIND_PARTICLES);
}

void SnowWaterExchange::begin_interval(double, double) {
  const uint32_t zero = 0;
  bind();
  gl::storage_barrier();  // the solvers' last passes wrote the particles
  field_nodes_.set("u_mode", 0u);
  field_nodes_.dispatch_linear(params_.counts.z, COUPLING_LOCAL_SIZE);  // the last interval's fractions to zero
  gl::storage_barrier();
  list_.upload(0, sizeof zero, &zero);
  for_each_snow_chunk(p2g_field_);
  gl::storage_barrier();
  field_set_.dispatch_linear(params_.counts.z, COUPLING_LOCAL_SIZE);
  gl::storage_barrier();
}

void SnowWaterExchange::exchange() {
  if (std::abs(snow_.time() - water_.time()) > 1e-9 * std::max(1.0, std::abs(snow_.time())))
    throw std::logic_error("SnowWaterExchange::exchange: snow at t = " + std::to_string(snow_.time()) +
                           " s, water at " + std::to_string(water_.time()) + " s");
  const uint32_t zero = 0;
  list_.upload(0, sizeof zero, &zero);  // the contact and field passes left every node's sums at zero
  bind();
  gl::storage_barrier();  // the solvers' last passes wrote the particles
  field_nodes_.set("u_mode", 1u);  // the nodes where the water's impulses on the snow were summed
  field_nodes_.dispatch_linear(params_.counts.z, COUPLING_LOCAL_SIZE);
  for_each_snow_chunk(p2g_snow_);
  p2g_water_.dispatch_linear(params_.counts.y, COUPLING_LOCAL_SIZE);
  gl::storage_barrier();
  contact_.dispatch_linear(params_.counts.z, COUPLING_LOCAL_SIZE);
  gl::storage_barrier();
  for_each_snow_chunk(g2p_snow_);
  g2p_water_.dispatch_linear(params_.counts.y, COUPLING_LOCAL_SIZE);
  gl::storage_barrier();
}

double SnowWaterExchange::max_interval() const {
  const double v = snow_.step_limits().max_speed, h = snow_.settings().grid.spacing;
  return v > 0 ? std::min(kSnowWaterMaxInterval, kFieldJump * h / v) : kSnowWaterMaxInterval;
}

void SnowWaterExchange::for_each_snow_chunk(gl::Program& program) {
  const uint32_t count = snow_.particle_count(), chunk = snow_.chunk_particles();
  for (uint32_t first = 0; first < count; first += std::min(chunk, count - first)) {
    const uint32_t n = std::min(chunk, count - first);
    snow_.particles().bind_storage_range(MPM_BIND_PARTICLES, size_t{first} * sizeof(mpm::GpuParticle),
                                         size_t{n} * sizeof(mpm::GpuParticle));
    program.set("chunk_first", first);
    program.set("chunk_count", n);
    program.dispatch_linear(n, COUPLING_LOCAL_SIZE);
  }
}

}  // namespace firn::app

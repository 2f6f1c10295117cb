#pragma once
/// Momentum exchange between the snow (MPM) and the water (SPH) on the GPU, issue 14.4: multi-material contact on
/// a grid with the snow grid's spacing and origin after Bardenhagen, Brackbill & Sulsky 2000 ("The material-point
/// method for granular materials", CMAME 187, Sec. 3, the contact algorithm). The model, its sources, the sync
/// points and what it conserves are in docs/coupling.md ("Snow and water").
/// 1. Particle-to-grid (quadratic B-spline weights w_ip): per node the snow's mass, momentum, volume and mass
///    gradient, the water's mass, momentum and volume, as 64-bit fixed-point sums (deterministic).
/// 2. Per node with both materials whose volume fraction (V_snow + V_water) / h^3 is at least phi_c: when the snow
///    approaches the water along n = -grad m_snow / |grad m_snow|, both take the centre-of-mass normal velocity
///    (Coulomb friction mu on the tangential part); dv_water = -(m_snow / m_water) dv_snow.
/// 3. Grid-to-particle: v_p += sum_i w_ip dv_i for both materials, so each gains sum_i m_i dv_i and the momentum
///    one loses the other gains, up to the fixed point's 2^-40 of the largest particle's mass and float rounding.
/// 0. (At every interval's start.) The snow's volume fraction phi_n = sum_p w_np V_p / h^3 on the nodes it touches
///    becomes a solid field of the water (sph/solid_field.h): the water adds rho0 phi to its density and the
///    matching pressure force, and sums the reaction per node; step 2 hands each node's sum to the snow there
///    (dv_snow = J / m_snow) before the contact. This keeps the water out of the snow between exchanges. The field
///    also holds each node's snow velocity and inverse mass, so that DFSPH's solves see the snow move as they push
///    it (docs/coupling.md "Under DFSPH").
/// Work is proportional to the particles plus the nodes they touch (a list of touched nodes); no read-back.
#include "app/coupling.h"
#include "app/coupling_layout.h"
#include "gl/buffer.h"
#include "gl/program.h"
#include "mpm/solver.h"
#include "sph/solver.h"

namespace firn::app {

/// Contact constants of the snow-water exchange.
struct SnowWaterContact {
  double friction = 0.0;  ///< Coulomb friction mu between snow and water (>= 0); 0 = free slip
  /// Combined volume fraction (V_snow + V_water) / h^3 a node needs for contact, in [0, 2]. 0 is Bardenhagen's
  /// rule (any node with both masses), which lets the materials stop up to the two kernels' width (about 2.5 h)
  /// apart; 1 needs them to fill the node's volume, so they touch within a fraction of h (docs/coupling.md).
  double volume_fraction = 1.0;
};

/// The water sees the snow's volume fraction as it stood at the interval's start, so snow at speed v enters water
/// that does not yet see it by v dt: a fraction jump of about v dt / h that the water's density takes at once at
/// the next start. The interval keeps it at kFieldJump (docs/coupling.md, "Snow and water"): 0.04, under half the
/// watchdog's 10 % compression bound, and the 0.0375 that the fixed 0.25 ms interval gave the 3 m/s snowball of the
/// momentum test (0.15 at 1 ms stopped the water with a compression error): 0.27 ms at 3 m/s on a 2 cm grid.
inline constexpr double kFieldJump = 0.04;
/// Longest snow-water interval [s] (slow or resting snow): 1 ms, the coupling's default without grains.
inline constexpr double kSnowWaterMaxInterval = 1e-3;

/// The GPU buffers and passes of the exchange between one snow and one water solver (which must outlive it), an
/// Exchange of app::Coupling: at every interval's end, with both solvers there, exchange(). Needs a current
/// OpenGL 4.3 context.
class SnowWaterExchange final : public Exchange {
 public:
  /// Sizes the coupling grid from the snow grid and the fixed-point scales from the largest particle mass and
  /// volume (one read-back of both particle sets, here only). Throws std::invalid_argument for contact constants
  /// out of range or a snow grid of more than max_nodes() nodes, std::runtime_error when the shaders fail to build.
  SnowWaterExchange(mpm::Solver& snow, sph::Solver& water, const SnowWaterContact& contact = {});

  /// Exchanges momentum between the snow and the water particles now (both solvers at the same time; throws
  /// std::logic_error otherwise). Issues GPU passes only: no read-back. Water outside the snow grid takes no part.
  void exchange();
  const char* name() const override { return "snow-water"; }
  /// Builds the snow's volume fraction that the water sees over the interval (GPU passes only, no read-back).
  void begin_interval(double start, double end) override;
  /// exchange(); the snow and the water give the bodies nothing here.
  void end_interval(std::vector<RigidImpulse>&) override { exchange(); }
  /// kFieldJump h / v [s] with the snow grid's spacing h and the snow's largest particle speed v at its last status
  /// read (the seeded speeds before its first), at most kSnowWaterMaxInterval.
  double max_interval() const override;
  const GpuCouplingParams& params() const { return params_; }
  /// The most grid nodes the coupling grid may have: its per-node sums (COUPLING_NODE_WORDS words) in one storage
  /// binding (gl::max_storage_block_bytes). Needs a current context.
  static size_t max_nodes();

 private:
  /// Runs a pass over the snow particles chunk by chunk, as mpm::Solver does (one binding may not hold them all).
  void for_each_snow_chunk(gl::Program& program);
  /// Binds the coupling's buffers, the water's solid field and the water particles.
  void bind();

  mpm::Solver& snow_;
  sph::Solver& water_;
  GpuCouplingParams params_{};
  gl::Buffer params_buffer_, nodes_, list_, deltas_;
  gl::Buffer field_list_;  ///< the nodes of the water's solid field (count, then node indices)
  gl::Program p2g_snow_, p2g_water_, contact_, g2p_snow_, g2p_water_;
  gl::Program p2g_field_, field_nodes_, field_set_;
};

}  // namespace firn::app

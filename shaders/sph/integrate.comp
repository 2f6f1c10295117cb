#version 430
// Symplectic Euler (v += dt a, then x += dt v), then the control regions in scene order, then the walls: a particle
// behind a wall is projected onto it and takes the wall's velocity response (a rigid body takes the momentum the
// particle loses, as an impulse). Also the per-step reductions (max
// speed, acceleration, density, extent along gravity, energy) and the watchdog: NaN, CFL and compression checks.
#include "sph/layout.glsl"
#include "sph/status.glsl"
#include "sph/boundary.glsl"
#include "sph/fixed64.glsl"
#include "sph/body_impulses.glsl"
#include "sph/pressure_solve.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;
layout(std430, binding = SPH_BIND_PARTICLES) buffer ParticleBuffer { Particle particles[]; };

void apply_regions(inout vec3 x, inout vec3 v) {
  for (uint k = 0u; k < region_count(); ++k) {
    Region r = regions[k];
    uint action = uint(r.min_action.w);
    if (action == SPH_REGION_BOUNDARY || !inside_box(x, r.min_action.xyz, r.max_thickness.xyz)) continue;
    // Teleport: the box's centre goes to the target, so particles arriving together keep their spacing (the
    // thesis's point target plus jitter piles them up, sph-water.md A.4).
    if (action == SPH_REGION_TELEPORT) x += r.vector.xyz - 0.5 * (r.min_action.xyz + r.max_thickness.xyz);
    if (action == SPH_REGION_SHIFT) x += r.vector.xyz;
    if (action == SPH_REGION_SET_SPEED) v = r.vector.xyz;
  }
}

// Particles stay a margin in front of the domain faces, the colliders and the slabs: half a lattice spacing, where
// the seeding lattice puts its first layer. Each of these solids stands for mirror images (boundary.glsl), and a
// particle's own image gives it a density that is even in its distance d to the solid, so its push (the density
// kernel's gradient at 2 d) vanishes at d = 0. Without the margin, particles crept onto the solids, where their own
// images overlapped them: under DFSPH a thin sheet sank towards a face until its own image made up its missing
// neighbours (0.004 m at s = 0.05 m), and the Jacobi step, facing a density with almost no gradient, drove its
// neighbours along the wall at 10 m/s (docs/water.md "Impacts"); under WCSPH columns at rest in tanks of colliders and
// slabs kept 1.2-3.7e-2 m/s of churn after 1 s, particles pressed onto the walls at 1-1.5 % over rest density
// (docs/water.md "Solids"). At d >= s / 2 every image is at least a spacing away, where the gradient is near its peak.
// WCSPH's water is compressible: its first layer, compressed against the wall up to the watchdog's bound
// (max_compression, step.z), stands at s / 2 / (1 + bound), so the margin is that (s / 2 held a resting column's
// bottom layer up by the hydrostatic compression and squeezed the layer above it). The rigid bodies keep no margin:
// their projection also moves momentum into the body (body_impulses.glsl), and a margin there is untested.
float wall_margin() {
  float half_spacing = 0.5 * kernel.w;
  return has_flag(SPH_FLAG_DFSPH) ? half_spacing : half_spacing / (1.0 + uintBitsToFloat(step.z));
}

void apply_walls(inout vec3 x, inout vec3 v, float m, uint id) {
  Wall wall;
  float margin = wall_margin();
  for (uint w = 0u; w < wall_count(); ++w) {
    if (!wall_at(w, x, w < first_body() ? margin : 0.0, wall) || wall.d >= 0.0) continue;
    x -= wall.d * wall.n;
    vec3 before = v;
    v = boundary_response(v, wall.velocity, wall.n, wall.friction, wall.kind);
    if (w >= first_body() && v != before) add_body_impulse(w - first_body(), m * (before - v), x, id);
  }
  // Rounding in the projections above must not leave a particle outside the domain box.
  if (has_flag(SPH_FLAG_WALLS)) x = clamp(x, domain_min.xyz, domain_max.xyz);
}

// The compression watchdog's bound: SphSettings::max_compression, plus with WCSPH the water hammer of the last step's
// fastest particle. A stream of speed v stopped by a wall, or meeting one as fast, compresses a fluid of sound speed c
// by v / c (Joukowsky: dp = rho0 c v and dp = c^2 drho near rho0); Tait's stiffer equation compresses less
// (tests/sph/test_water_hammer.cpp). Weakly compressible SPH takes c about 10 v_max, so its impacts compress about
// 10 % as designed: the default c of 30 m/s stopped a user's 0.4 m dam break where it met the far wall at 3.1 m/s on
// the 10 % bound alone, though with the bound raised the run went on calmly (docs/water.md "Watchdog"). The allowance
// stops growing at Mach 0.3, where a flow stops being nearly incompressible (steady density change M^2 / 2 ~ 5 %):
// without that cap a blow-up raised its own bound, and an open scene ran on with water at Mach 2 before the CFL check
// caught it. DFSPH has no sound speed (wave_speed 0) and keeps the bound itself, on what its solve leaves
// (compression_of). Float: this runs per particle.
const float WATER_HAMMER_MAX_MACH = 0.3;
float compression_bound() {
  float bound = uintBitsToFloat(step.z);
  if (stepper.wave_speed > 0.0LF) {
    bound += min(float(stepper.max_speed) / float(stepper.wave_speed), WATER_HAMMER_MAX_MACH);
  }
  return bound;
}

// The compression rho / rho0 - 1 that the watchdog judges. WCSPH: the density of this step's density pass. DFSPH:
// what the density solve leaves, its last prediction's excess e_i / rho0 = kappa_i dt^2 / (f_i rho0)
// (dfsph_predict.comp; a converged solve's residual, or the one at the iteration cap). DFSPH controls its density
// every step, so compression that its solve cannot remove is the failure; the density at the step's start also holds
// what the solve is about to remove: water a relocation region has put onto water, a particle projected onto a wall,
// the last step's error of the linear prediction. Judged there, the funnel (assets/scenes/funnel.json with `dfsph`)
// ended at 0.29 s where its shift region put water onto the stream, though with the bound at 50 % it ran its 4 s with
// WCSPH's speeds (docs/water.md "Watchdog"). A particle with no kernel gradient at all (f_i = 0: particles on one
// spot) is out of every solve's reach and is judged by its density.
float compression_of(uint s, Particle p) {
  float f = has_flag(SPH_FLAG_DFSPH) ? solve_term(s, 0u) : 0.0;
  if (f > 0.0) return solve_term(s, 1u) * time_step() * time_step() / (f * rest_density());
  return p.v_rho.w / rest_density() - 1.0;
}

void main() {
  uint s = gl_GlobalInvocationID.x;
  if (s >= particle_count() || !step_runs()) return;
  Particle p = particles[s];
  vec3 a = p.a_p.xyz;
  // DFSPH's density solve has already applied the acceleration with the pressure (dfsph_correct.comp); the
  // particle keeps the solves' totals for the next step's warm start, the loads and the output.
  vec3 v = p.v_rho.xyz + time_step() * a;
  if (has_flag(SPH_FLAG_DFSPH)) {
    v = p.v_rho.xyz;
    p.a_p.w = solve_term(s, 2u);
    p.id.y = solver_terms[s].w;
  }
  vec3 x = p.x_m.xyz + time_step() * v;
  apply_regions(x, v);
  apply_walls(x, v, p.x_m.w, p.id.x);
  p.x_m.xyz = x;
  p.v_rho.xyz = v;
  if (!finite(p.x_m) || !finite(p.v_rho) || !finite(p.a_p)) {
    atomicAdd(status.nonfinite, 1u);
    report_error(SPH_ERROR_NONFINITE, p.id.x);
  } else {
    float speed = length(v);
    if (speed > stepper.speed_limit) report_error(SPH_ERROR_CFL, p.id.x);
    if (compression_of(s, p) > compression_bound()) report_error(SPH_ERROR_DENSITY, p.id.x);
    ATOMIC_MAX_IF_ABOVE(status.max_speed_bits, floatBitsToUint(speed))
    ATOMIC_MAX_IF_ABOVE(status.max_accel_bits, floatBitsToUint(length(a)))
    ATOMIC_MAX_IF_ABOVE(status.max_density_bits, floatBitsToUint(max(p.v_rho.w, 0.0)))
    // Kinetic plus potential energy, the potential from the domain's lowest corner along gravity. With DFSPH the
    // water's extent in that potential sets its hydrostatic pressure, which the next step's dt follows (step.comp).
    vec3 lowest;
    for (int a = 0; a < 3; ++a) lowest[a] = gravity_dt[a] > 0.0 ? domain_max[a] : domain_min[a];
    float potential = -dot(gravity_dt.xyz, x - lowest);
    if (has_flag(SPH_FLAG_DFSPH)) {
      uint potential_bits = floatBitsToUint(max(potential, 0.0));
      ATOMIC_MAX_IF_ABOVE(status.max_potential_bits, potential_bits)
      ATOMIC_MIN_IF_BELOW(status.min_potential_bits, potential_bits)
    }
    float e = p.x_m.w * (0.5 * dot(v, v) + potential);
    ATOMIC_ADD_FIXED64(status.energy_lo, status.energy_hi, e * stepper.energy_scale)
  }
  particles[s] = p;
}

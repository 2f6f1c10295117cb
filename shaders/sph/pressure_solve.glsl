// DFSPH (Bender & Koschier 2015, 2017: "Divergence-free smoothed particle hydrodynamics"; docs/water.md "DFSPH").
// Pressure is not an equation of state of the density but the solution of two linear problems per step, solved by
// Jacobi iterations on the velocities:
//   divergence-free solver (start of the step, after the density pass): D rho_i / D t = 0,
//   constant-density solver (after the non-pressure forces):            rho_i + dt D rho_i / D t = rho0,
// with D rho_i / D t = sum_j m_j (v_i - v_j) . grad W_ij + rho0 grad V_i . (v_i - v_solid) (the continuum solids of
// boundary.glsl, whose V and grad V integrate the same spline under DFSPH; the images of the domain faces are pairs),
// W the cubic spline (solve_kernel below).
// A pressure kappa moves the velocities by
//   v_i -= dt sum_j m_j (kappa_i / rho_i^2 L_i + kappa_j / rho_j^2 L_j) grad W_ij + dt kappa_i / rho_i^2 rho0 grad V_i
// (Monaghan's symmetric form, as the WCSPH forces, each pressure's gradient corrected by its own particle's L; the
// solids' term as their pressure force in forces.comp). L_i is the per-particle gradient correction of Bonet & Lok
// 1999 (CMAME 180, the corrected kernel gradient), L_i = M_i^-1 with the moment
//   M_i = -sum_j (m_j / rho0) grad W_ij (x) (x_i - x_j')
// over the pairs (images included; an image's L is the reflection F L_j F): sum_j V_j (p_j - p_i) L_i grad W_ij is
// then exact for a linear p in any arrangement, so a resting column carries rho0 g d however it has settled (a
// scalar fitted to the seeding lattice, c = 0.980 at h = 2 s, read 2-3 % high once the column had settled:
// docs/water.md "The resting column"). The pair terms stay antisymmetric (L_i goes with kappa_i on both sides of a
// pair), so the pairs conserve momentum. Where the support is thin (a free surface's top layer, a splash) L blends
// to the lattice's scalar c (gradient_correction_of). With kappa_i alone nonzero the velocities change the rate of
// rho_i by -dt kappa_i / rho_i^2 D_i, where
//   D_i = (S_i + B_i) . (L_i S_i + B_i) + m_i sum_j m_j grad W_ij . L_i grad W_ij,
//   S_i = sum_j m_j grad W_ij, B_i = rho0 grad V_i,
// so the relaxed Jacobi step is kappa_i = e_i f_i / dt^2 (density) or e_i f_i / dt (divergence), with
// f_i = omega rho_i^2 / D_i [m^2] (omega = sph::dfsph_relaxation: DFSPH_RELAXATION up to h = 2 s; the DFSPH factor
// alpha_i of Bender & Koschier 2017 Eq. 9, written for a pressure instead of a stiffness) and
// e_i the predicted excess density [kg/m^3] or rate [kg/(m^3 s)]. Pressures only push: each solve's running total
// p_i stays >= 0 (the corrections are projected: kappa_i >= -p_i), the complementarity of a free surface. Both
// solves start warm from the last step's totals (Particle.a_p.w and Particle.id.y, carried through the sort), the
// density solve from all of it where rho_i > rho0 (else from 0), the divergence solve from half
// (DFSPH_WARM_START_* in common/bindings.h, dfsph_correct.comp kappa_of). A particle with too few neighbours takes
// no part in the divergence solve (in_divergence_solve below).
// The error of a solve is the average over all particles of the predicted compression max(e_i, 0) / rho0 (times dt
// for the divergence), summed per work group in shared memory and then in 64-bit fixed point, so the decision to stop
// is deterministic; the density solve also stops only once the largest error of one particle is within
// SphSettings::max_particle_density_error (an integer maximum of the float bits, order-independent too). The
// iterations run without a read-back: the prediction's last work group (dfsph_check.glsl) writes the group counts of
// the next iteration's indirect dispatches, zero once the solve has converged.
//
// Needs sph/layout.glsl.

// The state of the running solve and the last step's results (C++ mirror sph::GpuPressureSolve).
layout(std430, binding = SPH_BIND_PRESSURE_SOLVE) coherent buffer PressureSolveBuffer {
  uint error_lo, error_hi;  // this iteration's error sum, int64 of 2^-32 (SPH_SOLVE_ERROR_SCALE) in two words
  uint predictions;         // error evaluations of the running solve
  uint done;                // 1 once the running solve has converged or reached the iteration limit
  uvec4 last;               // last step: x, y iterations of the density and divergence solves; z, w their final
                            // average errors (floatBitsToUint)
  uvec4 totals;             // since the last status read: x, y iterations of the density and divergence solves;
                            // z solves that stopped at the limit above the bound; w unused
  uint error_max;           // this iteration's largest error of one particle (floatBitsToUint of a non-negative float)
  uint groups_done;         // work groups of the running prediction that have added their errors (dfsph_check.glsl)
  uint pad1, pad2;
} solve;

// Per sorted slot s, solver_terms[s] holds the float bits (solve_term) of x the factor f_i = omega rho_i^2 / D_i
// [m^2] (density pass), y this iteration's kappa_i [Pa], z and w the running totals of the density and divergence
// solves [Pa] (integrate.comp stores them in the particle). After the n slots' terms, solver_terms[n + s] is the
// word that dfsph_correct.comp reads for each neighbour j, one 16-byte load instead of its kappa, its density and
// the 32 bytes of L_j (bench/RESULTS.md, "DFSPH: one word per neighbour"): x the bits of kappa_j / rho_j^2
// [m^5 / (kg s^2)] of the running iteration (dfsph_predict.comp), y..w the gradient correction's difference from the
// identity, L_j - I, as six halves (density.comp; in this buffer because the density pass has no storage block to
// spare). L - I, not L: a half keeps 11 significant bits of what it stores, and in the bulk L - I is a few per cent
// of L, so the stored L is exact to about 1e-5 there.
layout(std430, binding = SPH_BIND_SOLVER_TERMS) coherent buffer SolverTermsBuffer { uvec4 solver_terms[]; };

float solve_term(uint s, uint c) { return uintBitsToFloat(solver_terms[s][c]); }
void set_solve_term(uint s, uint c, float value) { solver_terms[s][c] = floatBitsToUint(value); }

// kappa_j / rho_j^2 of sorted slot j in the running iteration (0 where kappa_j is 0) [m^5 / (kg s^2)].
float pressure_over_density2(uint j) { return uintBitsToFloat(solver_terms[particle_count() + j].x); }
void set_pressure_over_density2(uint j, float value) { solver_terms[particle_count() + j].x = floatBitsToUint(value); }

// The gradient correction L [1] from its three words of halves (xx, yy), (zz, xy), (xz, yz) of L - I (symmetric).
mat3 correction_from_halves(uvec3 h) {
  vec2 a = unpackHalf2x16(h.x), b = unpackHalf2x16(h.y), c = unpackHalf2x16(h.z);
  return mat3(1.0 + a.x, b.y, c.x, b.y, 1.0 + a.y, c.y, c.x, c.y, 1.0 + b.x);
}
// The gradient correction L of sorted slot j, as stored.
mat3 gradient_correction(uint j) { return correction_from_halves(solver_terms[particle_count() + j].yzw); }
// Stores L (and zero for kappa / rho^2 until dfsph_predict.comp sets it) and returns it as stored, which the Jacobi
// diagonal D_i must use: computed with the unrounded L it differs from the correction applied by about 1e-5, and
// the resting column at small steps moved 30 % faster (SphHydrostatic.DfsphColumnStaysAtRestAtSmallSteps, 0.054
// against 0.042 m/s, 2026-11-28).
mat3 store_gradient_correction(uint j, mat3 l) {
  uvec3 h = uvec3(packHalf2x16(vec2(l[0][0] - 1.0, l[1][1] - 1.0)), packHalf2x16(vec2(l[2][2] - 1.0, l[0][1])),
                  packHalf2x16(vec2(l[0][2], l[1][2])));
  solver_terms[particle_count() + j] = uvec4(0u, h);
  return correction_from_halves(h);
}

// L from the moment M [1] (pressure_solve.glsl's header) and the lattice's scalar c: M^-1 in the bulk, where det M >=
// 0.9 (a settled bulk reads 0.97-0.99, the seeding lattice 1.06), c I where det M <= 1/2 (the top layer of a flat
// lattice surface at h = 2 s reads 0.38, the point on the surface of a continuum half-space 1/8, and a splash's few
// neighbours may have no inverse at all), linear in det M between. In thin supports the inverse would amplify the
// symmetric form's own-pressure term, which points out of the water: ramped from 1/8 to 1/2 instead, it sped up the dam
// break's thin front (docs/water.md "The resting column").
mat3 gradient_correction_of(mat3 m, float c) {
  float d = determinant(m);
  float w = clamp((d - 0.5) / (0.9 - 0.5), 0.0, 1.0);
  mat3 lattice = mat3(c);
  return w > 0.0 ? w * inverse(m) + (1.0 - w) * lattice : lattice;
}

// The component of solver_terms holding the running total of solve `mode`.
uint total_component(uint mode) { return mode == SPH_SOLVE_DENSITY ? 2u : 3u; }

// The divergence solver's running total [Pa], kept in Particle.id.y between steps (the sort moves it along).
float divergence_pressure(Particle p) { return uintBitsToFloat(p.id.y); }

// Whether the particle takes part in the divergence solve: it has at least dfsph_divergence_min_neighbours (sph/
// seeding.h; SphParams.step.x) pairs and mirror images within h, counted by the density pass (Particle.id.z).
// SPlisHSPlasH's "particle deficiency" rule: a sparse particle's rate is left uncorrected and its divergence
// pressure gets no warm start. Its Jacobi factor grows as 1 / |grad W|^2 while the rate grows as |grad W|, so with
// one neighbour at the edge of its support its pressure grew without bound (the velocity change of that step stays
// finite), and the next step's warm start applied it with the closer pair's gradient (docs/water.md "Sparse
// particles").
bool in_divergence_solve(Particle p) { return p.id.z >= step.x; }

// The pressure that pushes on the solids [Pa]: the equation of state's, or the sum of DFSPH's two solves.
float solid_pressure(Particle p) {
  return has_flag(SPH_FLAG_DFSPH) ? p.a_p.w + divergence_pressure(p) : p.a_p.w;
}

// DFSPH's kernel: the cubic spline (Monaghan 1992; support h, q = |r| / h), for the density the solves hold at rho0
// and for its gradient, so that the predicted change of the density is the change of the density the next density
// pass measures (Bender & Koschier 2017 use it the same way):
//   W = 8 / (pi h^3) w(q),  w = 6 q^3 - 6 q^2 + 1 (q <= 1/2), 2 (1 - q)^3 (q <= 1);
//   grad W_ij = 48 / (pi h^4) g(q) r_ij / |r_ij|,  g = q (3 q - 2) (q <= 1/2), -(1 - q)^2 (q <= 1).
// Not poly6 (WCSPH's density kernel): its gradient peaks at |r| = 0.45 h, just inside the lattice spacing h / 2, and
// vanishes at 0, so a particle pressed against its own mirror image at a wall met less and less resistance and ran
// into the wall; the cubic spline's peaks at h / 3. Nor poly6's density with spiky's gradient: the two disagree, and a
// resting column churned at 0.2 m/s, its solves stalling at their error bound (docs/water.md "DFSPH").
// Both are returned without their scales (below), which keeps floats in range for any h.
float solve_kernel(float r2) {
  float q = sqrt(r2) / kernel_radius();
  if (q <= 0.5) return (6.0 * q - 6.0) * q * q + 1.0;
  float u = 1.0 - q;
  return q < 1.0 ? 2.0 * u * u * u : 0.0;
}
float solve_kernel_scale() { return 8.0 / (3.14159265358979 * kernel.y * kernel_radius()); }

vec3 solve_gradient(vec3 r, float r2) {
  float rl = sqrt(r2);
  if (rl <= 0.0) return vec3(0.0);
  float q = rl / kernel_radius();
  float g = q <= 0.5 ? q * (3.0 * q - 2.0) : (q < 1.0 ? -(1.0 - q) * (1.0 - q) : 0.0);
  return (g / rl) * r;
}
float solve_gradient_scale() { return 48.0 / (3.14159265358979 * kernel.y * kernel.y); }

// DFSPH (Bender & Koschier 2015, 2017: "Divergence-free smoothed particle hydrodynamics"; docs/water.md "DFSPH").
// Pressure is not an equation of state of the density but the solution of two linear problems per step, solved by
// Jacobi iterations on the velocities:
//   divergence-free solver (start of the step, after the density pass): D rho_i / D t = 0,
//   constant-density solver (after the non-pressure forces):            rho_i + dt D rho_i / D t = rho0,
// with D rho_i / D t = sum_j m_j (v_i - v_j) . grad W_ij + rho0 grad V_i . (v_i - v_solid) (the continuum solids of
// boundary.glsl; the images of the domain faces are pairs). grad W is spiky's (solve_gradient below), the
// density poly6's: the predicted change is not exactly the change of the measured density (docs/water.md "DFSPH":
// the solver is experimental). A pressure kappa moves the velocities by
//   v_i -= dt sum_j m_j (kappa_i / rho_i^2 + kappa_j / rho_j^2) grad W_ij + dt kappa_i / rho_i^2 rho0 grad V_i
// (Monaghan's symmetric form, as the WCSPH forces; the solids' term as their pressure force in forces.comp). With
// kappa_i alone nonzero this changes rho_i's rate by -dt kappa_i / rho_i^2 D_i, where
//   D_i = |sum_j m_j grad W_ij + rho0 grad V_i|^2 + m_i sum_j m_j |grad W_ij|^2,
// so the relaxed Jacobi step is kappa_i = e_i f_i / dt^2 (density) or e_i f_i / dt (divergence), with
// f_i = omega rho_i^2 / D_i [m^2] (omega = DFSPH_RELAXATION; the DFSPH factor alpha_i of Bender & Koschier 2017 Eq. 9,
// written for a pressure instead of a stiffness) and
// e_i the predicted excess density [kg/m^3] or rate [kg/(m^3 s)]. Pressures only push: each solve's running total
// p_i stays >= 0 (the corrections are projected: kappa_i >= -p_i), the complementarity of a free surface. Both
// solves start warm from DFSPH_WARM_START times the last step's totals (Particle.a_p.w and Particle.id.y, carried
// through the sort).
// The error of a solve is the average over all particles of the predicted compression max(e_i, 0) / rho0 (times dt
// for the divergence), summed per work group in shared memory and then in 64-bit fixed point, so the decision to stop
// is deterministic. The iterations run without a read-back: dfsph_check.comp writes the group counts of the next
// iteration's indirect dispatches, zero once the error is below SphSettings::max_density_error.
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
} solve;

// Per sorted slot: x the factor f_i = omega rho_i^2 / D_i [m^2] (density pass), y this iteration's kappa_i [Pa],
// z and w the running totals of the density and divergence solves [Pa] (integrate.comp stores them in the particle).
layout(std430, binding = SPH_BIND_SOLVER_TERMS) coherent buffer SolverTermsBuffer { vec4 solver_terms[]; };

// The component of solver_terms holding the running total of solve `mode`.
uint total_component(uint mode) { return mode == SPH_SOLVE_DENSITY ? 2u : 3u; }

// The divergence solver's running total [Pa], kept in Particle.id.y between steps (the sort moves it along).
float divergence_pressure(Particle p) { return uintBitsToFloat(p.id.y); }

// The pressure that pushes on the solids [Pa]: the equation of state's, or the sum of DFSPH's two solves.
float solid_pressure(Particle p) {
  return has_flag(SPH_FLAG_DFSPH) ? p.a_p.w + divergence_pressure(p) : p.a_p.w;
}

// The solves' kernel gradient: W_spiky's (Mueller et al. 2003 Eq. 21; Macklin & Mueller 2013 pair it with the
// poly6 density in the same way), grad W_ij = S u^2 r_ij / |r_ij| with u = 1 - |r_ij| / h and S = -45 / (pi h^4) (times a lattice correction, below).
// Not poly6's: its gradient peaks at |r| = 0.45 h, just inside the lattice spacing h / 2, and vanishes at 0, so a
// particle pressed against its own mirror image at a wall meets less and less resistance and runs into the wall.
// The spiky gradient grows all the way in. Returned without S (u^2 r / |r|, 0 at r = 0), which keeps floats in range
// for any h.
vec3 solve_gradient(vec3 r, float r2) {
  float rl = sqrt(r2);
  if (rl <= 0.0) return vec3(0.0);
  float u = 1.0 - rl / kernel_radius();
  return (u * u / rl) * r;
}
// S includes the lattice correction of the force pass's spiky gradient (coef.z, sph/seeding.h
// pressure_gradient_correction: sum_j V_j (x_j - x_i) (x) grad W_ij = -I on the seeding lattice), so that the
// predicted divergence of a linear velocity field and the pressure force of a linear pressure field are exact there:
// without it a resting column carries 1.08 rho0 g d.
float solve_gradient_scale() { return coef.z * kernel.y; }

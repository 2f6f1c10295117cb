// DFSPH, after each prediction (pressure_solve.glsl): the solve's average error against the bound (and, for the
// density solve, its largest error of one particle against u_max_particle_error) decides whether the next correction
// and prediction run; the indirect dispatch arguments of every chunk of particles are set to their group counts or to
// zero. Iterations = corrections applied after the warm start: a solve that converges at its k-th prediction applied
// k - 1; one still above the bound at prediction u_max_iterations + 1 (the CPU issues that many) applied
// u_max_iterations. A solve within its bounds still applies u_min_iterations corrections
// (SphSettings::min_iterations), unless its average error is at the float32 rounding of the density
// (SPH_SOLVE_NOISE_FLOOR): corrected, that noise would move the particles at about error s / dt, which grows without
// bound as dt shrinks.
// The decision is taken by the last work group of the prediction to finish (dfsph_predict.comp,
// finish_prediction()), not by a dispatch of its own: one dispatch and one barrier fewer per round, of which every
// solve issues max_iterations + 1 whether they run or not (bench/RESULTS.md, "DFSPH: the check in the prediction").
// dfsph_start.comp resets the state for a new solve (start_solve()).
//
// Needs sph/layout.glsl and sph/pressure_solve.glsl.

// Per chunk of particles (Solver::dispatch_with_lists): the indirect dispatch arguments (groups, 1, 1, unused).
layout(std430, binding = SPH_BIND_SOLVE_ARGS) writeonly buffer SolveArgsBuffer { uvec4 solve_args[]; };
uniform uint u_max_iterations;  // corrections after the warm start, >= 1
uniform uint u_min_iterations;  // corrections after the warm start at least, <= u_max_iterations
uniform float u_max_error;      // average relative error at which the solve stops
uniform float u_max_particle_error;  // density solve: the largest error of one particle at which it stops
uniform uint u_chunk;           // particles per chunk (Solver::dispatch_with_lists)
uniform uint u_chunks;

// Work groups of SPH_LOCAL_SIZE in chunk c's dispatch.
uint chunk_groups(uint c) {
  uint n = min(u_chunk, particle_count() - c * u_chunk);
  return (n + SPH_LOCAL_SIZE - 1u) / SPH_LOCAL_SIZE;
}

// Work groups of one running prediction, over all chunks.
uint solve_groups() {
  uint groups = 0u;
  for (uint c = 0u; c < u_chunks; ++c) groups += chunk_groups(c);
  return groups;
}

void set_groups(bool run) {
  for (uint c = 0u; c < u_chunks; ++c) solve_args[c] = uvec4(run ? chunk_groups(c) : 0u, 1u, 1u, 0u);
}

// A new solve: every chunk's groups, no error, no predictions.
void start_solve() {
  solve.error_lo = 0u;
  solve.error_hi = 0u;
  solve.predictions = 0u;
  solve.error_max = 0u;
  solve.groups_done = 0u;
  // A step that does not run (step.comp) starts no solve: its rounds become empty dispatches.
  solve.done = step_runs() ? 0u : 1u;
  set_groups(step_runs());
}

// The decision after a prediction whose error sums are complete. `sum_lo`, `sum_hi` and `worst_bits` are the summed
// error words and the largest error's bits; `mode` SPH_SOLVE_DENSITY or SPH_SOLVE_DIVERGENCE. Only a running solve
// gets here: once `done` is set, the predictions have no groups.
void finish_prediction(uint sum_lo, uint sum_hi, uint worst_bits, uint mode) {
  // The sum of non-negative errors as a double: exact while it stays below 2^53 units (an average error below 1/2 at
  // 2^22 particles), rounded in the 16th digit beyond; the stop decision compares far coarser numbers.
  double sum = double(sum_hi) * 4294967296.0 + double(sum_lo);
  float error = float(sum / SPH_SOLVE_ERROR_SCALE / double(particle_count()));
  float worst = uintBitsToFloat(worst_bits);
  solve.error_lo = 0u;
  solve.error_hi = 0u;
  solve.error_max = 0u;
  uint k = ++solve.predictions;
  bool converged = (k > u_min_iterations || error <= SPH_SOLVE_NOISE_FLOOR) && error <= u_max_error &&
                   (mode != SPH_SOLVE_DENSITY || worst <= u_max_particle_error);
  if (!converged && k <= u_max_iterations) return;  // the correction of this prediction runs, then the next one
  solve.done = 1u;
  set_groups(false);
  uint iterations = converged ? k - 1u : u_max_iterations;
  if (mode == SPH_SOLVE_DENSITY) {
    solve.last.x = iterations;
    solve.last.z = floatBitsToUint(error);
    solve.totals.x += iterations;
  } else {
    solve.last.y = iterations;
    solve.last.w = floatBitsToUint(error);
    solve.totals.y += iterations;
  }
  if (!converged) ++solve.totals.z;
}

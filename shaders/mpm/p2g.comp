#version 430
// Particle-to-grid: mass, momentum and elastic impulse dt f_i scattered to the 4x4x4 stencil as int32 fixed point
// (order-independent sums, hence deterministic). Stomakhin et al. 2013 Sec. 4 steps 1 and 3; Meyer 2015 Sec. 4.3.
// The polar rotation R_E of F_E comes with the particle (the particle update keeps it from its SVD), so this pass
// decomposes nothing (2.5-3 of 34 ms on two-snowballs on llvmpipe). With P2G_MASS_ONLY defined only the
// mass is scattered (first step, for the volume estimate). With APIC the momentum carries the particle's affine
// velocity: m_i v_i = sum_p w_ip m_p (v_p + C_p (x_i - x_p)) (Jiang et al. 2015 Eq. 11). With MPM_MLS (Hu et al.
// 2018, MLS-MPM, Sec. 5 and its Eq. 29): the quadratic B-spline and the elastic force folded into the affine
// momentum, m_i v_i = sum_p w_ip (m_p v_p + (m_p C_p - dt (4 / h^2) V_p sigma_p) (x_i - x_p)), since grad w_ip is
// approximated by w_ip D_p^-1 (x_i - x_p); the impulse channel stays zero.
//
// Two ways to add (docs/snow-pipeline.md, "Sorted particle-to-grid"):
// - direct (built without MPM_P2G_SORTED): one thread per particle, every node value an atomicAdd on the grid;
// - MPM_P2G_SORTED: the particles come sorted by the hashed key of their stencil (cell_sort.comp, read through
//   sort_order), so particles that add to the same nodes sit next to each other. A work group loads
//   MPM_LOCAL_SIZE consecutive sorted particles into shared memory, splits them into runs of equal stencil base,
//   and sums each run's values per node in registers before one atomicAdd per node and channel: the global
//   atomics drop by the particles per run (at most the particles per cell). Groups of short runs add particle by
//   particle instead. The integers summed are the same, so the grid and every particle are bit-identical to the
//   direct way (tests/mpm/test_sorted_p2g.cpp).
#include "mpm/layout.glsl"
#include "mpm/status.glsl"
#include "mpm/kernel.glsl"
#include "mpm/particles.glsl"
#ifndef P2G_MASS_ONLY
#include "mpm/blocks.glsl"
#endif

layout(local_size_x = MPM_LOCAL_SIZE) in;
layout(std430, binding = MPM_BIND_GRID) buffer GridBuffer { GridNode nodes[]; };

// V_p^n sigma_p = V_p^0 [2 mu (F_E - R_E) F_E^T + lambda (J_E - 1) J_E I] with mu, lambda hardened by
// exp(xi (1 - J_P)) (Stomakhin 2013 Eqs. 1-2 and the Cauchy stress; Meyer 2015 Eqs. 27, 30, 32) [N m].
mat3 volume_stress(Particle p) {
  Material mat = particle_material(p);
  mat3 FE = columns(p.fe);
  float harden = exp(mat.lame.z * (1.0 - p.fe[0].w));
  float mu = mat.lame.x * harden, lambda = mat.lame.y * harden;
  float JE = determinant(FE);
  mat3 RE = elastic_rotation(p);  // kept by the particle update (particles.glsl)
  // tau is symmetric (F_E = R_E S_E gives R_E F_E^T = R_E S_E R_E^T), but not quite in float with R_E from the
  // iterative polar decomposition: its antisymmetric part would be a torque of the grid forces on the snow, so it is
  // dropped. Off-centre collision, llvmpipe (MpmApic / MpmMls ...AngularMomentum): relative drift 1.23e-5 -> 1.15e-5
  // (APIC), 9.19e-6 -> 8.06e-6 (MLS); the rest is the int32 fixed point's rounding (docs/snow-pipeline.md).
  mat3 tau = 2.0 * mu * (FE - RE) * transpose(FE) + lambda * (JE - 1.0) * JE * mat3(1.0);
  return p.v_vol.w * (0.5 * (tau + transpose(tau)));
}

// What particle i adds besides its weights, computed once per particle: mass m [kg], momentum m v [kg m/s], affine
// momentum mC (APIC: m C; MLS: m C - dt 4/h^2 V sigma) [kg/s] and elastic impulse -dt V sigma [N s m] (PIC/FLIP
// and APIC; its product with grad w_ip is dt f_i).
void particle_terms(uint i, Particle p, out float m, out vec3 mv, out mat3 mC, out mat3 impulse) {
  m = p.x_m.w;
  mv = m * p.v_vol.xyz;
  mC = mat3(0.0);
  impulse = mat3(0.0);
#ifndef P2G_MASS_ONLY
#ifdef MPM_MLS
  float h = spacing();
  mC = m * mat3(affine[i]) - (time_step() * MPM_AFFINE_INVERSE / (h * h)) * volume_stress(p);
#else
  impulse = -time_step() * volume_stress(p);  // dt f_i = -dt sum_p V sigma grad w_ip
#ifdef MPM_APIC
  mC = m * mat3(affine[i]);
#endif
#endif
#endif
}

// The fixed-point values one particle adds to one node: mass, momentum, impulse dt f (zero with MLS).
struct NodeValue {
  int mass;
  ivec3 momentum;
  ivec3 impulse;
};

// A bound on |every fixed-point value| the particle adds to any node, in integer units (infinite for NaN). Bounds
// per component: the weight w <= 1; |x_i - x_p| <= MPM_STENCIL h per axis; |grad w| <= max(1, 1/h) per axis
// (|N'| <= 1 for both B-splines, times 1/h, or 1 with the thesis's gradient); so |w (m v + mC dx)| <= |m v| +
// MPM_STENCIL h sum_j |mC_j| and |impulse grad w| <= max(1, 1/h) sum_j |impulse_j| (columns j). Its users keep a
// factor 2 of headroom for the rounding of the bound itself and of the values (half a unit each).
float value_bound(float m, vec3 mv, mat3 mC, mat3 impulse) {
  float h = spacing();
  vec3 momentum = abs(mv) + float(MPM_STENCIL) * h * (abs(mC[0]) + abs(mC[1]) + abs(mC[2]));
  vec3 force = max(1.0, 1.0 / h) * (abs(impulse[0]) + abs(impulse[1]) + abs(impulse[2]));
  float b = max(m * scales.x, max(max(momentum.x, max(momentum.y, momentum.z)),
                                  max(force.x, max(force.y, force.z))) * scales.y);
  // max() may drop a NaN operand: test the terms themselves (a sum carries any NaN or infinity).
  float all_terms = m + dot(momentum, vec3(1.0)) + dot(force, vec3(1.0));
  return isnan(all_terms) || isinf(all_terms) ? uintBitsToFloat(0x7f800000u) : b;
}

// True when no node value of the particle can leave the int32 range, so that node_value may skip its per-value
// range checks (448 per particle: 65 -> 48 ms of this pass on two-snowballs on llvmpipe, one-off A/B). Non-finite particles take the checked
// path, which reports them.
bool values_in_range(float m, vec3 mv, mat3 mC, mat3 impulse) {
  return value_bound(m, mv, mC, impulse) <= 0.5 * FIXED_LIMIT;
}

// value * scale as int32: checked (overflow reported as `bit` for particle pid) unless the caller proved it fits.
int fixed_value(float value, float scale, bool checked, uint bit, uint pid) {
  return checked ? to_fixed(value, scale, bit, pid) : to_fixed_unchecked(value, scale);
}

// The values a particle (terms of particle_terms) adds to a node at dx = x_i - x_p [m] with weight w and gradient
// grad w [1/m]; `checked` false only where values_in_range holds. Plain arguments, no structs holding arrays:
// llvmpipe keeps those in memory and copies them per call (82 against 64 ms of this pass on two-snowballs when the
// stencil travelled inside a struct, one-off A/B).
NodeValue node_value(float w, vec3 grad, vec3 dx, float m, vec3 mv, mat3 mC, mat3 impulse, bool checked, uint pid) {
  NodeValue v;
  v.mass = fixed_value(m * w, scales.x, checked, MPM_ERROR_MASS_OVERFLOW, pid);
  v.momentum = ivec3(0);
  v.impulse = ivec3(0);
#ifndef P2G_MASS_ONLY
#ifdef MPM_APIC
  vec3 dp = w * (mv + mC * dx);
#else
  vec3 dp = w * mv;
#endif
  for (int d = 0; d < 3; ++d) v.momentum[d] = fixed_value(dp[d], scales.y, checked, MPM_ERROR_MOMENTUM_OVERFLOW, pid);
#ifndef MPM_MLS
  vec3 df = impulse * grad;
  for (int d = 0; d < 3; ++d) v.impulse[d] = fixed_value(df[d], scales.y, checked, MPM_ERROR_IMPULSE_OVERFLOW, pid);
#endif
#endif
  return v;
}

// Adds v to grid node k (checked: an int32 overflow is reported for particle pid). Zero values are skipped: adding
// zero changes nothing, and a stencil's outer nodes often round to zero (78 -> 65 ms of this pass on two-snowballs
// on llvmpipe, one-off A/B); channels that a build never fills are left alone.
void add_to_grid(int k, NodeValue v, uint pid) {
  if (v.mass != 0) ATOMIC_ADD_CHECKED(nodes[k].mass_momentum.x, v.mass, MPM_ERROR_MASS_OVERFLOW, pid)
#ifndef P2G_MASS_ONLY
  for (int d = 0; d < 3; ++d)
    if (v.momentum[d] != 0)
      ATOMIC_ADD_CHECKED(nodes[k].mass_momentum[d + 1], v.momentum[d], MPM_ERROR_MOMENTUM_OVERFLOW, pid)
#ifndef MPM_MLS
  for (int d = 0; d < 3; ++d)
    if (v.impulse[d] != 0) ATOMIC_ADD_CHECKED(nodes[k].impulse[d], v.impulse[d], MPM_ERROR_IMPULSE_OVERFLOW, pid)
#endif
#endif
}

// The particle's values added to every node of its stencil (one thread per particle). Called with a constant
// `checked`, so each call site compiles without the branch.
void scatter(Stencil s, vec3 x, float m, vec3 mv, mat3 mC, mat3 impulse, bool checked, uint pid) {
  int k0 = node_index(s.base);
  for (int c = 0; c < MPM_STENCIL; ++c)
    for (int b = 0; b < MPM_STENCIL; ++b)
      for (int a = 0; a < MPM_STENCIL; ++a) {
        ivec3 o = ivec3(a, b, c);
        ivec3 n = s.base + o;
        if (!node_in_grid(n)) continue;
#ifdef MPM_MLS
        vec3 grad = vec3(0.0);  // MLS folds the force into the affine momentum
#else
        vec3 grad = stencil_gradient(s, o);
#endif
        NodeValue v = node_value(stencil_weight(s, o), grad, node_position(n) - x, m, mv, mC, impulse, checked, pid);
        add_to_grid(k0 + node_offset(o), v, pid);
      }
}

#ifndef MPM_P2G_SORTED
void main() {
  uint i = linear_index();
  if (i >= chunk_count) return;
  uint pid = chunk_first + i;  // index in the whole particle set, for error reports
  Particle p = particles[i];
  vec3 x = p.x_m.xyz;
  Stencil s = make_stencil(x);
  if (!stencil_in_window(s.base)) {
    report_error(MPM_ERROR_WINDOW, pid);
    return;
  }
  float m;
  vec3 mv;
  mat3 mC, impulse;
  particle_terms(i, p, m, mv, mC, impulse);
#ifndef P2G_MASS_ONLY
  list_blocks(s.base, s.base + (MPM_STENCIL - 1));  // the grid update visits these blocks only
#endif
  if (values_in_range(m, mv, mC, impulse))
    scatter(s, x, m, mv, mC, impulse, false, pid);
  else
    scatter(s, x, m, mv, mC, impulse, true, pid);
}
#else
layout(std430, binding = MPM_BIND_SORT_ORDER) readonly buffer SortOrder { uint sort_order[]; };

#define STENCIL_NODES (MPM_STENCIL * MPM_STENCIL * MPM_STENCIL)
// The group's particles in sorted order, as plain arrays (see node_value).
shared ivec3 s_base[MPM_LOCAL_SIZE];
shared vec3 s_w[MPM_LOCAL_SIZE * MPM_STENCIL];   // per-axis weights of node base + k, particle-major
shared vec3 s_dw[MPM_LOCAL_SIZE * MPM_STENCIL];  // per-axis slopes [1/m]
shared vec4 s_x_m[MPM_LOCAL_SIZE];               // position [m], mass [kg]
shared vec3 s_mv[MPM_LOCAL_SIZE];
shared mat3 s_mC[MPM_LOCAL_SIZE];
shared mat3 s_impulse[MPM_LOCAL_SIZE];
shared uint s_pid[MPM_LOCAL_SIZE];
shared float s_bound[MPM_LOCAL_SIZE];  // value_bound
shared uint s_runs;  // runs: consecutive particles with the same stencil base (one cell)
// The tile: per run (at most P2G_TILE_NODES / STENCIL_NODES of them: 15 with the quadratic stencil, 6 with the
// cubic) its stencil's nodes, one int32 sum per node and channel. Channel c of run r's node q (stencil order) is
// s_tile[c * P2G_TILE_NODES + r * STENCIL_NODES + q]. Its size keeps the segments build within the 32 KiB of
// shared memory that GL 4.3 guarantees (llvmpipe's limit).
#define P2G_TILE_NODES 405
#define P2G_CHANNELS 7
shared int s_tile[P2G_CHANNELS * P2G_TILE_NODES];
shared uint s_run_of[MPM_LOCAL_SIZE];  // the run of each sorted particle
shared uint s_runs_out_of_range;  // nonzero when a run's sums may overflow (its bound sum, below)
shared uint s_run_first[MPM_LOCAL_SIZE];
#ifndef MPM_P2G_SEGMENTS
shared uint s_run_end[MPM_LOCAL_SIZE];
shared bool s_run_in_range[MPM_LOCAL_SIZE];  // no value and no partial sum of the run can overflow
#endif
#ifdef MPM_P2G_SEGMENTS
// Segments: consecutive runs of one row of cells (the same y and z of the base, x increasing by less than a stencil
// width from run to run, so that their stencils overlap). Segment g's cells, x from s_seg_base[g].x on, have the
// entries s_cell_first[s_seg_cell[g] + c], c = 0 .. cells: the first sorted particle in cell c or, for an empty
// cell, in the next one; entry `cells` is the segment's end. The particles of cells [c0, c1) are then the slots
// s_cell_first[c0] .. s_cell_first[c1].
#define MAX_SEGMENT_CELLS (MPM_STENCIL * MPM_LOCAL_SIZE)  // per segment its cells and an end: a run per particle, gaps
                                                          // under a stencil width between runs
shared ivec3 s_seg_base[MPM_LOCAL_SIZE];
shared uint s_seg_cell[MPM_LOCAL_SIZE + 1];
shared uint s_cell_first[MAX_SEGMENT_CELLS];
shared bool s_seg_in_range[MPM_LOCAL_SIZE];  // no value and no partial sum of the segment can overflow
shared uint s_segments;
#endif

// Adds to `sum` the values of sorted particle p for its stencil node o (= n); `checked` false only when the sum of
// the value_bounds of every particle summed into `sum` is in range, so that neither a value nor a partial sum can
// overflow. Called with a constant `checked`.
void add_particle(uint p, ivec3 o, ivec3 n, bool checked, inout NodeValue sum) {
  uint j = p * uint(MPM_STENCIL);
  vec3 wx = s_w[j + uint(o.x)], wy = s_w[j + uint(o.y)], wz = s_w[j + uint(o.z)];
  float w = wx.x * wy.y * wz.z;
#ifdef MPM_MLS
  vec3 grad = vec3(0.0);
#else
  vec3 grad = product_gradient(wx, wy, wz, s_dw[j + uint(o.x)], s_dw[j + uint(o.y)], s_dw[j + uint(o.z)]);
#endif
  vec4 x_m = s_x_m[p];
  uint pid = s_pid[p];
  NodeValue v = node_value(w, grad, node_position(n) - x_m.xyz, x_m.w, s_mv[p], s_mC[p], s_impulse[p], checked, pid);
  if (!checked) {
    sum.mass += v.mass;
    sum.momentum += v.momentum;
    sum.impulse += v.impulse;
    return;
  }
  sum.mass = checked_add(sum.mass, v.mass, MPM_ERROR_MASS_OVERFLOW, pid);
  for (int d = 0; d < 3; ++d) {
    sum.momentum[d] = checked_add(sum.momentum[d], v.momentum[d], MPM_ERROR_MOMENTUM_OVERFLOW, pid);
    sum.impulse[d] = checked_add(sum.impulse[d], v.impulse[d], MPM_ERROR_IMPULSE_OVERFLOW, pid);
  }
}

// The first particle of each run counts the run and lists the blocks of its stencil for the grid update; for the
// run sums it also records the run (in any order: the sums do not depend on it). s_runs is read after the next
// barrier. (The segments keep their own table, cut_segments, built only in the groups that sum.)
void cut_runs(uint l, uint count) {
  if (l >= count) return;
  ivec3 base = s_base[l];
  if (l > 0u && s_base[l - 1u] == base) return;
  uint r = atomicAdd(s_runs, 1u);
  list_blocks(base, base + (MPM_STENCIL - 1));
  uint end = l + 1u;
  float bound = s_bound[l];  // a bound on the run's sums: the sum of its particles' bounds
  s_run_of[l] = r;
  for (; end < count && s_base[end] == base; ++end) {
    bound += s_bound[end];
    s_run_of[end] = r;
  }
  s_run_first[r] = l;
  bool in_range = bound <= 0.5 * FIXED_LIMIT && !isnan(bound);
  if (!in_range) atomicOr(s_runs_out_of_range, 1u);
#ifndef MPM_P2G_SEGMENTS
  s_run_end[r] = end;
  s_run_in_range[r] = in_range;
#endif
}

#ifndef MPM_P2G_SEGMENTS
// The group's (run, stencil node) pairs, run-major, dealt to the invocations in turn: invocation l adds node
// k % STENCIL_NODES of run k / STENCIL_NODES for k = l, l + MPM_LOCAL_SIZE, ... Invocations of a run read the same
// particle at the same time (a broadcast from shared memory), sum its values for their node in registers, and add
// once per channel. With the cubic stencil (64 nodes, as many as invocations) each pass is one run; with the
// quadratic one (27) a pass spans parts of three runs, so that no invocation idles while runs remain.
void add_runs(uint l) {
  uint pairs = s_runs * uint(STENCIL_NODES);
  for (uint k = l; k < pairs; k += uint(MPM_LOCAL_SIZE)) {
    uint r = k / uint(STENCIL_NODES), q = k % uint(STENCIL_NODES);
    ivec3 o = ivec3(q % MPM_STENCIL, (q / MPM_STENCIL) % MPM_STENCIL, q / (MPM_STENCIL * MPM_STENCIL));
    uint a = s_run_first[r], e = s_run_end[r];
    ivec3 n = s_base[a] + o;
    if (!node_in_grid(n) || !node_in_window(n)) continue;  // outside the window: reported above
    NodeValue sum = NodeValue(0, ivec3(0), ivec3(0));
    if (s_run_in_range[r])
      for (uint p = a; p < e; ++p) add_particle(p, o, n, false, sum);
    else
      for (uint p = a; p < e; ++p) add_particle(p, o, n, true, sum);
    add_to_grid(node_index(n), sum, s_pid[a]);
  }
}
#else
// One invocation cuts the sorted particles into segments, in order (a walk over at most MPM_LOCAL_SIZE entries); a
// segment's bound is the sum of its particles' bounds.
void cut_segments(uint count) {
  uint segments = 0u, cells = 0u;
  float bound = 0.0;
  for (uint i = 0u; i < count; ++i) {
    ivec3 b = s_base[i];
    ivec3 prev = s_base[i == 0u ? 0u : i - 1u];
    if (i == 0u || b != prev) {
      // The sort's key is x-contiguous per row (common/cell_hash.glsl): a row's cells come in increasing x, except
      // where its keys wrap around the table. A new segment there, at another row, and where the stencils stop
      // overlapping.
      if (i == 0u || b.yz != prev.yz || b.x < prev.x || b.x - prev.x >= MPM_STENCIL) {
        if (segments > 0u) {
          s_seg_in_range[segments - 1u] = bound <= 0.5 * FIXED_LIMIT;
          s_cell_first[cells++] = i;  // the previous segment's end
        }
        bound = 0.0;
        s_seg_base[segments] = b;
        s_seg_cell[segments++] = cells;
      } else {
        for (int x = prev.x + 1; x < b.x; ++x) s_cell_first[cells++] = i;  // an empty cell: the next one's first
      }
      s_cell_first[cells++] = i;
    }
    bound += s_bound[i];
  }
  s_cell_first[cells++] = count;  // the last segment's end
  s_seg_in_range[segments - 1u] = bound <= 0.5 * FIXED_LIMIT;
  s_seg_cell[segments] = cells;
  s_segments = segments;
}

// The sum for node n = segment base + (ix, oy, oz) over the particles whose stencil holds it: those of the cells
// ix - MPM_STENCIL + 1 .. ix, consecutive slots, each at node offset n.x - its base x along x. One loop, the same
// for every invocation of a SIMD vector (they share ix). Called with a constant `checked`.
NodeValue node_sum(uint c0, uint cells, int ix, int oy, int oz, ivec3 n, bool checked) {
  NodeValue sum = NodeValue(0, ivec3(0), ivec3(0));
  uint a = s_cell_first[c0 + uint(max(ix - (MPM_STENCIL - 1), 0))];
  uint e = s_cell_first[c0 + uint(min(ix + 1, int(cells)))];
  for (uint p = a; p < e; ++p) add_particle(p, ivec3(n.x - s_base[p].x, oy, oz), n, checked, sum);
  return sum;
}

// Per segment, invocation l adds the nodes q = l, l + MPM_LOCAL_SIZE, ... of the segment's stencils,
// each once per channel with the values of every run whose stencil holds it summed in registers: one atomic per
// node of the row's stencils instead of one per node of every run's.
void add_segments(uint l) {
  for (uint g = 0u; g < s_segments; ++g) {
    ivec3 b0 = s_seg_base[g];
    uint c0 = s_seg_cell[g], cells = s_seg_cell[g + 1u] - c0 - 1u;  // less the end entry
    uint nx = cells + uint(MPM_STENCIL - 1);
    uint total = nx * uint(MPM_STENCIL * MPM_STENCIL);
    bool in_range = s_seg_in_range[g];
    uint pid = s_pid[s_cell_first[c0]];  // the segment's first particle, named by an overflow report
    for (uint q = l; q < total; q += uint(MPM_LOCAL_SIZE)) {
      // y and z fastest: the invocations of a SIMD vector (llvmpipe runs 8) share ix, hence the cells and runs
      // they sum, and loop alike (with x fastest they diverged: 75 against 61 ms on two-snowballs).
      int yz = int(q % uint(MPM_STENCIL * MPM_STENCIL)), ix = int(q / uint(MPM_STENCIL * MPM_STENCIL));
      int oy = yz % MPM_STENCIL, oz = yz / MPM_STENCIL;
      ivec3 n = b0 + ivec3(ix, oy, oz);
      if (!node_in_grid(n) || !node_in_window(n)) continue;  // outside the window: reported above
      NodeValue sum;
      if (in_range)
        sum = node_sum(c0, cells, ix, oy, oz, n, false);
      else
        sum = node_sum(c0, cells, ix, oy, oz, n, true);
      add_to_grid(node_index(n), sum, pid);
    }
  }
}
#endif

// Tile channel c of slot t (0: mass, 1-3: momentum, 4-6: impulse) gains `value` (a shared atomic).
void add_to_tile(int c, int t, int value) {
  if (value != 0) atomicAdd(s_tile[c * P2G_TILE_NODES + t], value);
}

// The invocation's own particle added to its run's slots of the tile: the same integers as `scatter` adds to the
// grid, unchecked (the caller proved that no sum over the group can overflow).
void scatter_to_tile(Stencil s, vec3 x, float m, vec3 mv, mat3 mC, mat3 impulse, uint run, uint pid) {
  for (int c = 0; c < MPM_STENCIL; ++c)
    for (int b = 0; b < MPM_STENCIL; ++b)
      for (int a = 0; a < MPM_STENCIL; ++a) {
        ivec3 o = ivec3(a, b, c);
#ifdef MPM_MLS
        vec3 grad = vec3(0.0);
#else
        vec3 grad = stencil_gradient(s, o);
#endif
        NodeValue v = node_value(stencil_weight(s, o), grad, node_position(s.base + o) - x, m, mv, mC, impulse,
                                 false, pid);
        int t = int(run) * STENCIL_NODES + a + MPM_STENCIL * (b + MPM_STENCIL * c);
        add_to_tile(0, t, v.mass);
        for (int d = 0; d < 3; ++d) add_to_tile(1 + d, t, v.momentum[d]);
        for (int d = 0; d < 3; ++d) add_to_tile(4 + d, t, v.impulse[d]);
      }
}

// The tile's sums added to the grid, the (run, node) slots dealt to the invocations in turn: one global atomic per
// run, node and channel (zero sums skipped), as the run sums add, without their reads of every particle per node.
void flush_tile(uint l) {
  uint slots = s_runs * uint(STENCIL_NODES);
  for (uint k = l; k < slots; k += uint(MPM_LOCAL_SIZE)) {
    uint r = k / uint(STENCIL_NODES), q = k % uint(STENCIL_NODES);
    ivec3 o = ivec3(q % MPM_STENCIL, (q / MPM_STENCIL) % MPM_STENCIL, q / (MPM_STENCIL * MPM_STENCIL));
    uint first = s_run_first[r];
    ivec3 n = s_base[first] + o;
    if (!node_in_grid(n) || !node_in_window(n)) continue;  // outside the window: reported above
    NodeValue v;
    v.mass = s_tile[k];
    for (int d = 0; d < 3; ++d) v.momentum[d] = s_tile[(1 + d) * P2G_TILE_NODES + int(k)];
    for (int d = 0; d < 3; ++d) v.impulse[d] = s_tile[(4 + d) * P2G_TILE_NODES + int(k)];
    add_to_grid(node_index(n), v, s_pid[first]);
  }
}

void main() {
  uint group = gl_WorkGroupID.x + gl_NumWorkGroups.x * gl_WorkGroupID.y;
  uint first = group * uint(MPM_LOCAL_SIZE);
  if (first >= chunk_count) return;  // the whole group: the split dispatch's last row overhangs
  uint count = min(uint(MPM_LOCAL_SIZE), chunk_count - first);
  uint l = gl_LocalInvocationIndex;
  if (l == 0u) s_runs = 0u;
  if (l == 1u) s_runs_out_of_range = 0u;
  // The invocation's own particle, kept for groups of short runs (below).
  Stencil s;
  float m;
  vec3 mv;
  mat3 mC, impulse;
  bool own = false;
  if (l < count) {
    uint i = sort_order[first + l];
    Particle p = particles[i];
    s = make_stencil(p.x_m.xyz);
    s_base[l] = s.base;
    particle_terms(i, p, m, mv, mC, impulse);
    s_x_m[l] = vec4(p.x_m.xyz, m);
    s_pid[l] = chunk_first + i;
    s_bound[l] = value_bound(m, mv, mC, impulse);
    own = stencil_in_window(s.base);
    if (!own) report_error(MPM_ERROR_WINDOW, chunk_first + i);
  }
  barrier();  // also orders shared memory (GLSL 4.30 Sec. 8.16)
  cut_runs(l, count);
  barrier();

  // The tile when the group's runs' stencils fit and no run's sums can overflow (a slot sums one run's particles,
  // each sum at most the run's bound sum): the particles add their values, computed in registers, to shared memory
  // with shared atomics, then one global atomic per run, node and channel. On llvmpipe a shared atomic costs about a
  // fifth of a global one (two-snowballs, 2026-11-29: the direct pass's seven atomics per node took 23 ms on the
  // grid, 5 ms in shared memory). Otherwise the particles or the run sums below.
  uint slots = s_runs * uint(STENCIL_NODES);
  if (slots <= uint(P2G_TILE_NODES) && s_runs_out_of_range == 0u) {
    for (uint k = l; k < uint(P2G_CHANNELS) * slots; k += uint(MPM_LOCAL_SIZE))
      s_tile[(k / slots) * uint(P2G_TILE_NODES) + k % slots] = 0;  // the slots in use, channel by channel
    barrier();
    if (own) scatter_to_tile(s, s_x_m[l].xyz, m, mv, mC, impulse, s_run_of[l], s_pid[l]);
    barrier();
    flush_tile(l);
    return;
  }

  // Fewer than two particles per run on average (sparse snow: about one particle per cell) gain less from the sums
  // than their shared-memory passes cost (a 186 k-particle bunny at one per cell: 2x slower with runs, 2x with
  // segments too): then every invocation adds its own particle, as the direct pass does (the blocks are listed
  // above). The same integers either way. s_runs is read after the barrier: the branch is the group's.
  if (s_runs * 2u > count) {
    if (own) {
      vec3 x = s_x_m[l].xyz;
      if (s_bound[l] <= 0.5 * FIXED_LIMIT)
        scatter(s, x, m, mv, mC, impulse, false, s_pid[l]);
      else
        scatter(s, x, m, mv, mC, impulse, true, s_pid[l]);
    }
    return;
  }
  // The run sums read every particle's weights and terms from shared memory (written only here: the tile and
  // the particles above keep them in registers).
  if (l < count) {
    for (int k = 0; k < MPM_STENCIL; ++k) {
      s_w[l * uint(MPM_STENCIL) + uint(k)] = s.w[k];
      s_dw[l * uint(MPM_STENCIL) + uint(k)] = s.dw[k];
    }
    s_mv[l] = mv;
    s_mC[l] = mC;
    s_impulse[l] = impulse;
  }
  barrier();
#ifdef MPM_P2G_SEGMENTS
  if (l == 0u) cut_segments(count);  // only in groups that sum: the walk is serial
  barrier();
  add_segments(l);
#else
  add_runs(l);
#endif
}
#endif

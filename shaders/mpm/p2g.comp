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
//   sort_order), so particles that add to the same nodes sit next to each other. A work group takes
//   MPM_LOCAL_SIZE consecutive sorted particles, cuts them into row segments whose stencils overlap, adds every
//   particle's values to its segment's slab of nodes in shared memory (shared atomics), then each slab node to the
//   grid once per channel: the global atomics drop by the particles that share a node within the group. Groups
//   whose slabs do not fit add particle by particle. The integers summed are the same, so the grid and every
//   particle are bit-identical to the direct way (tests/mpm/test_sorted_p2g.cpp).
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
  // tau is symmetric in exact arithmetic only (F_E = R_E S_E gives R_E F_E^T = R_E S_E R_E^T). Dropping its float
  // antisymmetric part, 0.5 (tau + tau^T), took the off-centre collision's angular momentum drift on llvmpipe from
  // 1.23e-5 to 1.15e-5 (APIC), but NVIDIA's compiler (driver 580, H200) turned that form, and the same written
  // element by element, into grid forces 16-36 % off the CPU reference (MpmPasses.ParticleToGrid), so tau is used as
  // it comes (docs/snow-pipeline.md).
  return p.v_vol.w * (2.0 * mu * (FE - RE) * transpose(FE) + lambda * (JE - 1.0) * JE * mat3(1.0));
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
// range checks (448 per particle: 65 -> 48 ms of this pass on two-snowballs on llvmpipe, one-off A/B). Non-finite
// particles take the checked path, which reports them.
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

// The tile (docs/snow-pipeline.md, "Sorted particle-to-grid"). The group's 64 sorted particles are cut into row
// segments: consecutive particles whose stencil bases share y and z and whose x do not decrease and step by less
// than a stencil width (the sort's key is x-contiguous per row, common/cell_hash.glsl), so that the stencils of a
// segment overlap along x. Segment g's stencils cover a slab of nx_g x MPM_STENCIL x MPM_STENCIL nodes from its
// first base; the slabs lie one after another in the tile, one int32 sum per node and channel: channel c of tile
// node t is s_tile[c * P2G_TILE_NODES + t]. 7 x 1,008 x 4 B = 27.6 KiB, with the rest within the 32 KiB of shared
// memory GL 4.3 guarantees (llvmpipe's limit). Groups at two or more particles per cell take it (sparser ones add
// particle by particle, main): at two per cell in one row the quadratic stencils need 9 x 34 = 306 nodes, so a group
// spread over three such rows still fits.
#define P2G_TILE_NODES 1008
#define P2G_CHANNELS 7
shared int s_tile[P2G_CHANNELS * P2G_TILE_NODES];
shared ivec3 s_base[MPM_LOCAL_SIZE];  // stencil base of each sorted particle
shared ivec4 s_seg[MPM_LOCAL_SIZE];   // per segment: first base (xyz), first tile node (w)
shared int s_seg_nx[MPM_LOCAL_SIZE];  // per segment: slab length along x [nodes]
shared uint s_seg_mask[2];  // bit l: sorted particle l starts a segment
shared uint s_runs;         // runs of equal stencil base (cells)
shared uint s_nodes;        // tile nodes the slabs take
shared uint s_max_bound;    // the largest value_bound of the group, as float bits (non-negative floats order as
                            // their bits; infinity, which value_bound gives for NaN, above every finite bound)

// Tile channel c of node t (0: mass, 1-3: momentum, 4-6: impulse) gains `value` (a shared atomic).
void add_to_tile(int c, int t, int value) {
  if (value != 0) atomicAdd(s_tile[c * P2G_TILE_NODES + t], value);
}

// The invocation's own particle added to its segment's slab: the same integers as `scatter` adds to the grid,
// unchecked (the caller proved that no sum can overflow).
void scatter_to_tile(Stencil s, vec3 x, float m, vec3 mv, mat3 mC, mat3 impulse, uint seg, uint pid) {
  ivec4 g = s_seg[seg];
  int nx = s_seg_nx[seg];
  int t0 = g.w + (s.base.x - g.x);
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
        int t = t0 + a + nx * (b + MPM_STENCIL * c);
        add_to_tile(0, t, v.mass);
        for (int d = 0; d < 3; ++d) add_to_tile(1 + d, t, v.momentum[d]);
        for (int d = 0; d < 3; ++d) add_to_tile(4 + d, t, v.impulse[d]);
      }
}

// The tile's sums added to the grid, slab by slab, its nodes dealt to the invocations in turn: one global atomic
// per node and channel of each slab (zero sums skipped).
void flush_tile(uint l, uint segments, uint pid) {
  for (uint g = 0u; g < segments; ++g) {
    ivec4 seg = s_seg[g];
    int nx = s_seg_nx[g];
    int total = nx * MPM_STENCIL * MPM_STENCIL;
    for (int k = int(l); k < total; k += MPM_LOCAL_SIZE) {
      ivec3 n = seg.xyz + ivec3(k % nx, (k / nx) % MPM_STENCIL, k / (nx * MPM_STENCIL));
      if (!node_in_grid(n) || !node_in_window(n)) continue;  // no in-window stencil reaches it: nothing added
      int t = seg.w + k;
      NodeValue v;
      v.mass = s_tile[t];
      for (int d = 0; d < 3; ++d) v.momentum[d] = s_tile[(1 + d) * P2G_TILE_NODES + t];
      for (int d = 0; d < 3; ++d) v.impulse[d] = s_tile[(4 + d) * P2G_TILE_NODES + t];
      add_to_grid(node_index(n), v, pid);
    }
  }
}

void main() {
  uint group = gl_WorkGroupID.x + gl_NumWorkGroups.x * gl_WorkGroupID.y;
  uint first = group * uint(MPM_LOCAL_SIZE);
  if (first >= chunk_count) return;  // the whole group: the split dispatch's last row overhangs
  uint count = min(uint(MPM_LOCAL_SIZE), chunk_count - first);
  uint l = gl_LocalInvocationIndex;
  if (l == 0u) s_runs = 0u;
  if (l == 1u) s_nodes = 0u;
  if (l == 2u) s_max_bound = 0u;
  if (l < 2u) s_seg_mask[l] = 0u;
  // The invocation's own particle, in registers.
  Stencil s;
  vec3 x;
  float m;
  vec3 mv;
  mat3 mC, impulse;
  float bound = 0.0;
  bool own = false;
  uint pid = 0u;
  if (l < count) {
    uint i = sort_order[first + l];
    Particle p = particles[i];
    x = p.x_m.xyz;
    s = make_stencil(x);
    s_base[l] = s.base;
    particle_terms(i, p, m, mv, mC, impulse);
    pid = chunk_first + i;
    bound = value_bound(m, mv, mC, impulse);
    own = stencil_in_window(s.base);
    if (!own) report_error(MPM_ERROR_WINDOW, pid);
  }
  barrier();  // also orders shared memory (GLSL 4.30 Sec. 8.16)
  if (l < count) {
    atomicMax(s_max_bound, floatBitsToUint(bound));
    ivec3 prev = s_base[l == 0u ? 0u : l - 1u];
    if (l == 0u || prev != s.base) {
      // A run's first particle counts the run and lists the blocks of its stencil for the grid update.
      atomicAdd(s_runs, 1u);
      if (own) list_blocks(s.base, s.base + (MPM_STENCIL - 1));
    }
    // A segment starts at a new row or where x decreases or jumps by a stencil width or more (the key is
    // x-contiguous per row but wraps around the table, common/cell_hash.glsl).
    if (l == 0u || s.base.yz != prev.yz || s.base.x < prev.x || s.base.x - prev.x >= MPM_STENCIL)
      atomicOr(s_seg_mask[l / 32u], 1u << (l % 32u));
  }
  barrier();
  // Groups whose cells average under two particles (sparse snow, about one per cell) gain less from the tile than
  // its shared-memory adds and flush cost (Meyer's bunny at one per cell: 310 against 250 ms of this pass when they
  // took it): every invocation adds its own particle, as the direct pass does. The same integers either way. The
  // branch is the group's (shared values read after the barrier).
  uvec2 mask = uvec2(s_seg_mask[0], s_seg_mask[1]);
  uint segments = uint(bitCount(mask.x) + bitCount(mask.y));
  bool dense = s_runs * 2u <= count && float(count) * uintBitsToFloat(s_max_bound) <= 0.5 * FIXED_LIMIT;
  uint seg = 0u;
  if (dense && l < count) {
    // This particle's segment: the starts at or below l, counted; its first particle is the highest of them and
    // its end the next start above l (or the group's end).
    uvec2 upto = l < 32u ? uvec2(mask.x & (0xffffffffu >> (31u - l)), 0u)
                         : uvec2(mask.x, mask.y & (0xffffffffu >> (63u - l)));
    seg = uint(bitCount(upto.x) + bitCount(upto.y)) - 1u;
    uint a = upto.y != 0u ? 32u + uint(findMSB(upto.y)) : uint(findMSB(upto.x));
    if (l == a) {
      uvec2 above = l < 31u ? uvec2(mask.x & ~(0xffffffffu >> (31u - l)), mask.y)
                            : uvec2(0u, l < 32u ? mask.y : mask.y & ~(0xffffffffu >> (63u - l)));
      uint e = above.x != 0u ? uint(findLSB(above.x)) : above.y != 0u ? 32u + uint(findLSB(above.y)) : count;
      int nx = s_base[e - 1u].x - s.base.x + MPM_STENCIL;
      uint off = atomicAdd(s_nodes, uint(nx * MPM_STENCIL * MPM_STENCIL));  // slabs in any order: the sums do not
                                                                            // depend on where they are kept
      s_seg[seg] = ivec4(s.base, int(off));
      s_seg_nx[seg] = nx;
    }
  }
  barrier();
  // The tile when the group is dense, its slabs fit and no sum can overflow (each tile sum is at most the group's
  // count times its largest bound).
  if (dense && s_nodes <= uint(P2G_TILE_NODES)) {
    uint used = s_nodes;
    for (uint k = l; k < uint(P2G_CHANNELS) * used; k += uint(MPM_LOCAL_SIZE))
      s_tile[(k / used) * uint(P2G_TILE_NODES) + k % used] = 0;  // the nodes in use, channel by channel
    barrier();
    if (own) scatter_to_tile(s, x, m, mv, mC, impulse, seg, pid);
    barrier();
    flush_tile(l, segments, chunk_first + sort_order[first]);  // an overflow of a grid sum names the group's first
    return;
  }
  // Otherwise every invocation adds its own particle, as the direct pass does, its values checked unless its own
  // bound proves them in range.
  if (own) {
    if (bound <= 0.5 * FIXED_LIMIT)
      scatter(s, x, m, mv, mC, impulse, false, pid);
    else
      scatter(s, x, m, mv, mC, impulse, true, pid);
  }
}
#endif

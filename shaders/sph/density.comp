#version 430
// Density and pressure (Mueller et al. 2003 Eq. 3 with W_poly6, self term included):
//   rho_i = sum_j m_j W_poly6(x_i - x_j, h)   over the neighbours and their mirror images across the domain faces
//           + rho0 V_i,                       V_i = int_S W_poly6 over the colliders and slabs (boundary.glsl),
//           + rho0 phi(x_i),                  the volume fraction of a solid field (solid_field.glsl),
//   p_i = EOS(rho_i) (eos.glsl), or with DFSPH (SPH_FLAG_DFSPH) the factor f_i of its solvers
//   (pressure_solve.glsl) from the gradient sums of the same terms; p_i is then left to the solvers.
// Lists every neighbour and image it sums for the force pass (SphSettings::neighbour_list_stride). Also stores the
// solids' terms of the force pass (boundary_terms), which depend on x_i and v_i only, and adds the
// reaction to the rigid bodies' terms, times dt, to the bodies' impulse sums (body_impulses.glsl): the force pass
// applies exactly those terms to the particle in this step, so the water loses the momentum the bodies gain. The
// solid field's pressure term goes the same way: into the stored terms, its reaction into the field's node sums.
#include "sph/layout.glsl"
#include "sph/particles.glsl"
#include "sph/neighbours.glsl"
#include "sph/boundary.glsl"
#include "sph/mirror.glsl"
#include "sph/eos.glsl"
#include "sph/status.glsl"
#include "sph/body_impulses.glsl"
#include "sph/solid_field_reaction.glsl"
#include "sph/pressure_solve.glsl"

layout(local_size_x = SPH_LOCAL_SIZE) in;
layout(std430, binding = SPH_BIND_BOUNDARY) writeonly buffer BoundaryBuffer { BoundaryTerms boundary[]; };
layout(std430, binding = SPH_BIND_NEIGHBOUR_LISTS) writeonly buffer NeighbourListBuffer { uint neighbour_lists[]; };
uniform uint u_list_stride;  // SphSettings::neighbour_list_stride; 0: no list
uniform uint u_first;        // first sorted slot of this dispatch; neighbour_lists[] starts at its list
uniform float u_gradient_correction;  // DFSPH: the lattice scalar c of thin supports (pressure_solve.glsl)
uniform float u_relaxation;          // DFSPH: Jacobi's omega (sph::dfsph_relaxation)

float g_sum = 0.0;
uint g_listed = 0u;
bool g_dfsph;
// DFSPH's sums in the units of solve_kernel and solve_gradient (pressure_solve.glsl; times their scales).
float g_sum_solve = 0.0;  // sum_j m_j W_ij
vec3 g_grad = vec3(0.0);  // sum_j m_j grad W_ij
mat3 g_grad2 = mat3(0.0);   // sum_j m_j grad W_ij (x) grad W_ij
mat3 g_moment = mat3(0.0);  // -sum_j m_j grad W_ij (x) r_ij (times solve_gradient_scale() / rho0: the moment M_i)

// Adds neighbour j (sorted slot; of the image set `mask`, 0 for the particle's own position) at squared distance
// r2, and lists it for the force pass (sph/forces.comp) while the list has room; the count goes on past it.
void add(uint list, uint j, uint mask, float r2) {
  float q = kernel.y - r2;
  g_sum += positions[j].w * q * q * q;
  if (g_listed + 1u < u_list_stride) neighbour_lists[list + 1u + g_listed] = (j << 3) | mask;
  ++g_listed;
}

// DFSPH's sums of neighbour j at r = x_i - x_j' (x_j' the neighbour or its image).
void add_solve_sums(uint j, vec3 r, float r2) {
  float m = positions[j].w;
  g_sum_solve += m * solve_kernel(r2);
  vec3 grad = solve_gradient(r, r2);
  g_grad += m * grad;
  g_grad2 += m * outerProduct(grad, grad);
  g_moment -= m * outerProduct(grad, r);
}

void main() {
  uint s = u_first + gl_GlobalInvocationID.x;
  uint list = (s - u_first) * u_list_stride;  // this particle's list within the bound range
  if (s >= particle_count() || !step_runs()) return;
  g_dfsph = has_flag(SPH_FLAG_DFSPH);
  vec3 xi = particles[s].x_m.xyz;
  ivec3 faces = near_faces(xi);
  // Two copies of the loops, so that the equation of state's path compiles as it did before DFSPH (the same bits).
  if (g_dfsph) {
    FOR_EACH_NEIGHBOUR(xi, j, r, r2) {
      add(list, j, 0u, r2);
      add_solve_sums(j, r, r2);
    }
    END_FOR_EACH_NEIGHBOUR
    for (uint mask = 1u; mask < 8u; ++mask) {
      if (!image_usable(mask, faces)) continue;
      vec3 y = reflect_point(xi, mask, faces);
      vec3 f = flip_signs(mask);
      FOR_EACH_NEIGHBOUR(y, j, r, r2) {
        add(list, j, mask, r2);
        add_solve_sums(j, f * r, r2);
      }
      END_FOR_EACH_NEIGHBOUR
    }
  } else {
    FOR_EACH_NEIGHBOUR(xi, j, r, r2) { add(list, j, 0u, r2); }
    END_FOR_EACH_NEIGHBOUR
    for (uint mask = 1u; mask < 8u; ++mask) {
      if (!image_usable(mask, faces)) continue;
      vec3 y = reflect_point(xi, mask, faces);
      FOR_EACH_NEIGHBOUR(y, j, r, r2) { add(list, j, mask, r2); }
      END_FOR_EACH_NEIGHBOUR
    }
  }
  if (u_list_stride > 0u) neighbour_lists[list] = g_listed;
  vec3 vi = particles[s].v_rho.xyz;
  Near near = near_solids(xi);
  Share share[BOUNDARY_MAX_NEAR];
  BoundaryTerms b = boundary_terms(xi, vi, particles[s].x_m.w, near, share);
  vec4 field = solid_field_at(xi);
  b.pressure_volume += vec4(-rest_density() * field.xyz, field.w);
  b.push.xyz -= rest_density() * field.xyz;
  boundary[s].pressure_volume = b.pressure_volume;
  boundary[s].push = b.push;
  boundary[s].viscous = b.viscous;
  boundary[s].damping = b.damping;
  boundary[s].lift = b.lift;  // the solids of boundary_terms only (not the grains' solid field)
  if (body_count() > 0u) boundary[s].body_share = b.body_share;  // read only with bodies (dfsph_reactions.comp)
  // DFSPH's density is its own kernel's (pressure_solve.glsl), WCSPH's poly6's.
  if (g_dfsph) {
    float rho = solve_kernel_scale() * g_sum_solve + rest_density() * b.pressure_volume.w;
    particles[s].v_rho.w = rho;
    particles[s].id.z = g_listed - 1u;  // neighbours and images, the particle itself left out (in_divergence_solve)
    // The factor of the DFSPH solvers (pressure_solve.glsl):
    //   D_i = (S + B) . (L S + P) + m_i sum_j m_j grad W . L grad W = (S + B) . (L S + P) + m_i trace(L K)
    // with K = sum_j m_j grad W (x) grad W, the solids' B = rho0 grad V_i = -b.pressure_volume.xyz (the change of
    // rho_i as the particle moves) and P = -b.push.xyz (what the solids push it with; boundary_shares); a particle
    // with no gradient at all (alone) gets no pressure.
    float scale = solve_gradient_scale();
    mat3 moment = (scale / rest_density()) * g_moment;
    mat3 l = store_gradient_correction(s, gradient_correction_of(moment, u_gradient_correction));
    mat3 lk = l * g_grad2;
    vec3 pairs = scale * g_grad, solids = -b.pressure_volume.xyz, push = -b.push.xyz;
    float d = dot(pairs + solids, l * pairs + push) +
              particles[s].x_m.w * scale * (scale * (lk[0][0] + lk[1][1] + lk[2][2]));
    solver_terms[s] = uvec4(floatBitsToUint(d > 0.0 ? u_relaxation * rho * rho / d : 0.0), 0u, 0u, 0u);
    // The solids' drag reactions now; their pressure reactions once the solvers have found the pressure
    // (dfsph_reactions.comp).
    for (uint k = 0u; k < near.count; ++k) {
      if (near.index[k] < first_body()) continue;
      vec3 f = solid_force(near, k, share[k], xi, vi, particles[s].x_m.w, rho, 0.0);
      add_body_impulse(near.index[k] - first_body(), time_step() * f, xi, particles[s].id.x);
    }
    return;
  }
  float rho = coef.x * g_sum + rest_density() * b.pressure_volume.w;
  particles[s].v_rho.w = rho;
  float p = pressure_of(rho);
  particles[s].a_p.w = p;
  add_solid_field_reaction(xi, time_step() * particles[s].x_m.w * rest_density() * p / (rho * rho),
                           particles[s].id.x);
  for (uint k = 0u; k < near.count; ++k) {
    if (near.index[k] < first_body()) continue;
    vec3 f = solid_force(near, k, share[k], xi, vi, particles[s].x_m.w, rho, p);
    add_body_impulse(near.index[k] - first_body(), time_step() * f, xi, particles[s].id.x);
  }
}

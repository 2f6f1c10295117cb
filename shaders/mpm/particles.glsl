// The particle and grid buffers as most passes see them.
// Particle passes run over chunks of the particles (gl::Buffer::bind_storage_range), so that a particle buffer
// larger than one SSBO binding may expose still runs: particles[0] is particle chunk_first of the whole set, and the
// dispatch covers chunk_count particles (mpm::Solver::for_each_chunk).
#include "common/dispatch.glsl"
#include "common/quaternion.glsl"
layout(std430, binding = MPM_BIND_PARTICLES) buffer ParticleBuffer { Particle particles[]; };
// APIC: C_p = B_p D_p^-1 (Jiang et al. 2015 Eq. 10, D_p = h^2/3 I for the cubic B-spline), columns in vec4s [1/s].
// The passes are built with MPM_APIC defined for "transfer": "apic" (a separate program, so that PIC/FLIP runs
// none of it).
layout(std430, binding = MPM_BIND_AFFINE) buffer AffineBuffer { mat3x4 affine[]; };
uniform uint chunk_first;
uniform uint chunk_count;
layout(std430, binding = MPM_BIND_MATERIALS) readonly buffer MaterialBuffer { Material materials[]; };

Material particle_material(Particle p) { return materials[uint(p.fe[1].w)]; }

// R_E of the polar decomposition F_E = R_E S_E, kept as a unit quaternion in the particle's spare components
// (layout.glsl): the particle update takes it from the SVD it computes anyway, so that particle-to-grid's stress
// needs no decomposition of its own.
mat3 elastic_rotation(Particle p) {
  return rotation_from_quaternion(vec4(p.fp[0].w, p.fp[1].w, p.fp[2].w, p.fe[2].w));
}

void set_elastic_rotation(inout Particle p, mat3 R) {
  vec4 q = quaternion_from_rotation(R);
  p.fp[0].w = q.x;
  p.fp[1].w = q.y;
  p.fp[2].w = q.z;
  p.fe[2].w = q.w;
}

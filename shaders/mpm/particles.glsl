// The particle and grid buffers as most passes see them.
// Particle passes run over chunks of the particles (gl::Buffer::bind_storage_range), so that a particle buffer
// larger than one SSBO binding may expose still runs: particles[0] is particle chunk_first of the whole set, and the
// dispatch covers chunk_count particles (mpm::Solver::for_each_chunk).
#include "common/dispatch.glsl"
layout(std430, binding = MPM_BIND_PARTICLES) buffer ParticleBuffer { Particle particles[]; };
// APIC: C_p = B_p D_p^-1 (Jiang et al. 2015 Eq. 10, D_p = h^2/3 I for the cubic B-spline), columns in vec4s [1/s].
// The passes are built with MPM_APIC defined for "transfer": "apic" (a separate program, so that PIC/FLIP runs
// none of it).
layout(std430, binding = MPM_BIND_AFFINE) buffer AffineBuffer { mat3x4 affine[]; };
uniform uint chunk_first;
uniform uint chunk_count;
layout(std430, binding = MPM_BIND_MATERIALS) readonly buffer MaterialBuffer { Material materials[]; };

Material particle_material(Particle p) { return materials[uint(p.fe[1].w)]; }

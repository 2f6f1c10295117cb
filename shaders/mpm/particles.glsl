// The particle and grid buffers as most passes see them.
// Particle passes run over chunks of the particles (gl::Buffer::bind_storage_range), so that a particle buffer
// larger than one SSBO binding may expose still runs: particles[0] is particle chunk_first of the whole set, and the
// dispatch covers chunk_count particles (mpm::Solver::for_each_chunk).
#include "common/dispatch.glsl"
layout(std430, binding = MPM_BIND_PARTICLES) buffer ParticleBuffer { Particle particles[]; };
uniform uint chunk_first;
uniform uint chunk_count;
layout(std430, binding = MPM_BIND_MATERIALS) readonly buffer MaterialBuffer { Material materials[]; };

Material particle_material(Particle p) { return materials[uint(p.fe[1].w)]; }

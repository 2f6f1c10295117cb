// The particle and grid buffers as most passes see them.
layout(std430, binding = MPM_BIND_PARTICLES) buffer ParticleBuffer { Particle particles[]; };
layout(std430, binding = MPM_BIND_MATERIALS) readonly buffer MaterialBuffer { Material materials[]; };

Material particle_material(Particle p) { return materials[uint(p.fe[1].w)]; }

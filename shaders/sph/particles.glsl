// The particle buffer in sorted order and the hash table over it, as the neighbour passes see them.
layout(std430, binding = SPH_BIND_PARTICLES) buffer ParticleBuffer { Particle particles[]; };
layout(std430, binding = SPH_BIND_CELL_START) readonly buffer CellStartBuffer { uint cell_start[]; };

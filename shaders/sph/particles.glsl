// The particle buffer in sorted order and the hash table over it, as the neighbour passes see them.
layout(std430, binding = SPH_BIND_PARTICLES) buffer ParticleBuffer { Particle particles[]; };
layout(std430, binding = SPH_BIND_CELL_START) readonly buffer CellStartBuffer { uint cell_start[]; };
// Copies of particles[].x_m (position, mass) written by the reorder pass: the neighbour loops test about six
// candidates per true neighbour, and 16-byte records put four candidates in a cache line instead of one.
layout(std430, binding = SPH_BIND_POSITIONS) readonly buffer PositionBuffer { vec4 positions[]; };

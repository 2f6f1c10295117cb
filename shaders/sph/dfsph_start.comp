#version 430
// DFSPH: resets the solve state before a solve's warm start (dfsph_check.glsl start_solve()). One invocation.
#include "sph/layout.glsl"
#include "sph/pressure_solve.glsl"
#include "sph/dfsph_check.glsl"

layout(local_size_x = 1) in;

void main() { start_solve(); }

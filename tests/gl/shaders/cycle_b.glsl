#include "cycle_a.glsl"

#version 430
// One pass of the separable bilateral depth filter (Green 2010) along x (u_axis 0) or y (1); the weights are
// documented with render::DepthFilter (src/render/depth_smoothing.h), whose CPU reference is in tests/render.
#include "common/bindings.h"

layout(binding = RENDER_FLUID_UNIT_DEPTH) uniform sampler2D u_depth;  // eye depth [m], RENDER_FLUID_NO_DEPTH: none
uniform int u_axis;
uniform float u_radius;       // world-space filter radius [m]
uniform float u_depth_sigma;  // range standard deviation [m]
uniform float u_focal_px;     // pixels per metre at 1 m eye depth

layout(location = 0) out float out_depth;

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  ivec2 size = textureSize(u_depth, 0);
  float d0 = texelFetch(u_depth, p, 0).r;
  if (d0 <= RENDER_FLUID_NO_DEPTH) {
    out_depth = RENDER_FLUID_NO_DEPTH;
    return;
  }
  ivec2 delta = u_axis == 0 ? ivec2(1, 0) : ivec2(0, 1);
  float support = min(u_radius * u_focal_px / d0 + 1.0, float(RENDER_FLUID_MAX_FILTER_PX));
  int reach = int(support);
  float range_scale = 0.5 / (u_depth_sigma * u_depth_sigma);
  float sum = 0.0, weights = 0.0;
  for (int k = -reach; k <= reach; ++k) {
    ivec2 q = p + k * delta;
    if (any(lessThan(q, ivec2(0))) || any(greaterThanEqual(q, size))) continue;
    float d = texelFetch(u_depth, q, 0).r;
    if (d <= RENDER_FLUID_NO_DEPTH) continue;
    float x = float(k) / support;
    float taper = 1.0 - x * x;
    float w = exp(-2.0 * x * x) * taper * taper * exp(-(d - d0) * (d - d0) * range_scale);
    sum += w * d;
    weights += w;
  }
  out_depth = sum / weights;  // k = 0 has weight 1
}

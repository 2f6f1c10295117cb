#version 430
// The snow's volume fraction at every touched node, phi_n = sum_p w_np V_p / h^3 (V_p = V0 J, from p2g_snow.comp
// with COUPLING_FIELD), for the water's density and pressure, and its velocity p_n / m_n and inverse mass 1 / m_n,
// for DFSPH's strong coupling (shaders/sph/solid_field_motion.glsl; 0 where the snow's mass is below the contact's
// presence threshold: such a node stands still); copies the touched-node list into the field list and zeroes the
// node's sums for the next exchange.
#include "coupling/layout.glsl"
#include "common/dispatch.glsl"

layout(local_size_x = COUPLING_LOCAL_SIZE) in;
layout(std430, binding = COUPLING_BIND_FIELD_LIST) writeonly buffer CouplingFieldList { uint field_list[]; };
layout(std430, binding = SPH_BIND_FIELD_FRACTION) writeonly buffer FieldFractionBuffer { float field_fraction[]; };
layout(std430, binding = SPH_BIND_FIELD_MOTION) writeonly buffer FieldMotionBuffer { vec4 field_motion[]; };

void main() {
  uint k = linear_index();
  uint count = cpl_list[0];
  if (k == 0u) field_list[0] = count;
  if (k >= count) return;
  uint i = cpl_list[1u + k];
  double volume = cpl_channel(i, COUPLING_SNOW_VOLUME) / double(cpl_scales.z);
  double h = double(cpl_origin_h.w);
  field_fraction[i] = float(volume / (h * h * h));
  double units = cpl_channel(i, COUPLING_SNOW_MASS), mass = units / double(cpl_scales.x);
  dvec3 momentum = dvec3(cpl_channel(i, COUPLING_SNOW_MOMENTUM), cpl_channel(i, COUPLING_SNOW_MOMENTUM + 1),
                         cpl_channel(i, COUPLING_SNOW_MOMENTUM + 2)) / double(cpl_scales.y);
  field_motion[i] = units >= COUPLING_PRESENT_UNITS ? vec4(vec3(momentum / mass), float(1.0 / mass)) : vec4(0.0);
  field_list[1u + k] = i;
  for (int c = 0; c < COUPLING_NODE_WORDS; ++c) cpl_nodes[i * uint(COUPLING_NODE_WORDS) + uint(c)] = 0u;
}

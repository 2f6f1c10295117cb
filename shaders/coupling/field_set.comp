#version 430
// The snow's volume fraction at every touched node, phi_n = sum_p w_np V_p / h^3 (V_p = V0 J, from p2g_snow.comp
// with COUPLING_VOLUME_ONLY), for the water's density and pressure (shaders/sph/solid_field.glsl); copies the
// touched-node list into the field list and zeroes the node's sums for the next exchange.
#include "coupling/layout.glsl"
#include "common/dispatch.glsl"

layout(local_size_x = COUPLING_LOCAL_SIZE) in;
layout(std430, binding = COUPLING_BIND_FIELD_LIST) writeonly buffer CouplingFieldList { uint field_list[]; };
layout(std430, binding = SPH_BIND_FIELD_FRACTION) writeonly buffer FieldFractionBuffer { float field_fraction[]; };

void main() {
  uint k = linear_index();
  uint count = cpl_list[0];
  if (k == 0u) field_list[0] = count;
  if (k >= count) return;
  uint i = cpl_list[1u + k];
  uint w = i * uint(COUPLING_NODE_WORDS) + uint(2 * COUPLING_SNOW_VOLUME);
  double volume = fixed64_value(cpl_nodes[w], cpl_nodes[w + 1u]) / double(cpl_scales.z);
  double h = double(cpl_origin_h.w);
  field_fraction[i] = float(volume / (h * h * h));
  field_list[1u + k] = i;
  for (int c = 0; c < COUPLING_NODE_WORDS; ++c) cpl_nodes[i * uint(COUPLING_NODE_WORDS) + uint(c)] = 0u;
}

#version 430
// Over the nodes whose snow volume fraction the water sees (the field list, written by field_set.comp):
// u_mode 0 clears their fraction before it is built again (so no node keeps a stale one); u_mode 1 adds them to
// the touched-node list of an exchange, so that the contact pass hands on the water's impulses summed there.
#include "coupling/layout.glsl"
#include "common/dispatch.glsl"

layout(local_size_x = COUPLING_LOCAL_SIZE) in;
layout(std430, binding = COUPLING_BIND_FIELD_LIST) readonly buffer CouplingFieldList { uint field_list[]; };
layout(std430, binding = SPH_BIND_FIELD_FRACTION) writeonly buffer FieldFractionBuffer { float field_fraction[]; };
uniform uint u_mode;

void main() {
  uint k = linear_index();
  if (k >= field_list[0]) return;
  uint i = field_list[1u + k];
  if (u_mode == 0u)
    field_fraction[i] = 0.0;
  else
    cpl_touch(int(i));
}

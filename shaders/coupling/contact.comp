#version 430
// Contact at every touched node of the coupling grid (Bardenhagen, Brackbill & Sulsky 2000, Sec. 3, "The contact
// algorithm"; src/app/snow_water_exchange.h): where both materials have mass, their combined volume fraction is at
// least phi_c and the snow approaches the water along the normal n = -grad m_snow / |grad m_snow| out of the snow
// (the channel holds sum_p m_p grad_p w_ip, the particle-position gradient: minus the mass field's), both take the
// centre-of-mass normal velocity; Coulomb friction mu limits the tangential slip change to mu times the normal one.
// Before the contact, the snow at the node takes the water's pressure impulse summed there over the interval
// (the water sees the snow as a solid field, shaders/sph/solid_field.glsl): dv_snow = J / m_snow, so the snow
// gains what the water lost (dropped where no snow is left at the node: see docs/coupling.md).
// Writes each material's velocity change (zero without contact) and zeroes the node's sums, and the impulse, for
// the next exchange.
#include "coupling/layout.glsl"
#include "common/dispatch.glsl"

layout(local_size_x = COUPLING_LOCAL_SIZE) in;
layout(std430, binding = SPH_BIND_FIELD_REACTION) buffer FieldReactionBuffer { uint field_reaction[]; };

void main() {
  uint k = linear_index();
  if (k >= cpl_list[0]) return;
  uint i = cpl_list[1u + k];
  uint w = i * uint(COUPLING_NODE_WORDS);
  double sm = double(cpl_scales.x), sp = double(cpl_scales.y), sv = double(cpl_scales.z), sg = double(cpl_scales.w);
  float ms = float(cpl_channel(i, COUPLING_SNOW_MASS) / sm), mw = float(cpl_channel(i, COUPLING_WATER_MASS) / sm);
  vec3 ps, pw, grad;
  for (int a = 0; a < 3; ++a) {
    ps[a] = float(cpl_channel(i, COUPLING_SNOW_MOMENTUM + a) / sp);
    pw[a] = float(cpl_channel(i, COUPLING_WATER_MOMENTUM + a) / sp);
    grad[a] = float(cpl_channel(i, COUPLING_SNOW_GRADIENT + a) / sg);
  }
  float fraction = float((cpl_channel(i, COUPLING_SNOW_VOLUME) + cpl_channel(i, COUPLING_WATER_VOLUME)) / sv) /
                   (cpl_origin_h.w * cpl_origin_h.w * cpl_origin_h.w);
  for (int c = 0; c < COUPLING_NODE_WORDS; ++c) cpl_nodes[w + uint(c)] = 0u;
  vec3 reaction;  // [N s], in the momentum units
  for (uint a = 0u; a < 3u; ++a) {
    uint r = 6u * i + 2u * a;
    reaction[a] = float(fixed64_value(field_reaction[r], field_reaction[r + 1u]) / sp);
    field_reaction[r] = 0u;
    field_reaction[r + 1u] = 0u;
  }

  vec3 dvs = vec3(0.0), dvw = vec3(0.0);
  float g = length(grad);
  float present = COUPLING_PRESENT_UNITS / cpl_scales.x;  // [kg]
  vec3 dv_reaction = vec3(0.0);
  if (ms >= present) {
    dv_reaction = reaction / ms;
    ps += reaction;
  }
  if (ms >= present && mw >= present && g > 0.0 && fraction >= cpl_contact.y) {
    vec3 n = grad / g;  // out of the snow
    vec3 d = ps / ms - (ps + pw) / (ms + mw);  // snow velocity relative to the centre of mass
    float dn = dot(d, n);
    if (dn > 0.0) {  // approaching
      vec3 t = d - dn * n;
      float slip = length(t);
      dvs = -dn * n;
      if (slip > 0.0) dvs -= min(cpl_contact.x * dn, slip) / slip * t;
      dvw = -(ms / mw) * dvs;
    }
  }
  cpl_deltas[2u * i] = vec4(dvs + dv_reaction, 0.0);
  cpl_deltas[2u * i + 1u] = vec4(dvw, 0.0);
}

// Lambert + ambient shading shared by the render programs (src/render/view_params.h, Lighting).
uniform vec3 u_light_view;  // unit direction towards the light, view space
uniform float u_ambient;
uniform float u_diffuse;

// `colour` lit from u_light_view for the unit view-space normal `n`.
vec3 shade(vec3 colour, vec3 n) {
  return colour * (u_ambient + u_diffuse * max(dot(n, u_light_view), 0.0));
}

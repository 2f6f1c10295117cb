// Ray casting of a sphere impostor (shaders/render/sphere.vert): the first point where the ray from the eye (the
// view-space origin) through `ray` meets the sphere, and the window depth of a view-space point.
uniform mat4 u_projection;

// Half the chord length along the unit ray `dir` through the sphere (centre `centre`, radius `radius`, view space
// [m]), or a negative value when the ray misses it. Computed as r^2 - (distance from the centre to the ray)^2, which
// keeps precision for small, distant spheres.
float sphere_half_chord(vec3 dir, vec3 centre, float radius) {
  vec3 perp = centre - dot(dir, centre) * dir;
  float disc = radius * radius - dot(perp, perp);
  return disc < 0.0 ? -1.0 : sqrt(disc);
}

// The view-space point [m] where the unit ray `dir` enters the sphere; `half_chord` from sphere_half_chord.
vec3 sphere_entry(vec3 dir, vec3 centre, float half_chord) { return (dot(dir, centre) - half_chord) * dir; }

// Window depth of view-space point `p` under u_projection, or a value below gl_DepthRange.near - 1 when it lies
// before the near plane (callers discard then).
float window_depth(vec3 p) {
  vec4 clip = u_projection * vec4(p, 1.0);
  float ndc_z = clip.z / clip.w;
  if (ndc_z < -1.0) return gl_DepthRange.near - 2.0;
  return 0.5 * ((gl_DepthRange.far - gl_DepthRange.near) * ndc_z + gl_DepthRange.near + gl_DepthRange.far);
}

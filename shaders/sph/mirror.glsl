// The walled domain box as mirror planes (the method of images, e.g. Libersky et al. 1993): across every face
// closer than h the fluid is continued by its reflection, across two faces (edges) and three (corners) by the
// double and triple reflections. For a neighbour j of the reflected point y = S(x_i) the image j' = S(x_j) lies at
// x_i - x_j' = F (y - x_j), F the diagonal of -1 on the reflected axes, so |x_i - x_j'| = |y - x_j| and the usual
// neighbour loop around y finds every image. For a lattice the images continue it exactly, so a body resting on
// the floor or in a corner has rest density up to the wall (no kernel deficiency, no double counting at edges).

// For each axis: -1 / +1 when x is closer than h to the lower / upper face, 0 otherwise.
ivec3 near_faces(vec3 x) {
  ivec3 f = ivec3(0);
  if (!has_flag(SPH_FLAG_WALLS)) return f;
  for (int a = 0; a < 3; ++a) {
    if (x[a] - domain_min[a] < kernel_radius()) f[a] = -1;
    else if (domain_max[a] - x[a] < kernel_radius()) f[a] = 1;
  }
  return f;
}

// True when image set `mask` (bit a = reflect axis a) is usable at x: every reflected axis has a near face.
bool image_usable(uint mask, ivec3 faces) {
  for (int a = 0; a < 3; ++a)
    if ((mask & (1u << a)) != 0u && faces[a] == 0) return false;
  return true;
}

// The reflection of x across the near faces selected by `mask`.
vec3 reflect_point(vec3 x, uint mask, ivec3 faces) {
  for (int a = 0; a < 3; ++a)
    if ((mask & (1u << a)) != 0u) x[a] = 2.0 * (faces[a] < 0 ? domain_min[a] : domain_max[a]) - x[a];
  return x;
}

// F: -1 on the reflected axes, +1 elsewhere.
vec3 flip_signs(uint mask) {
  return vec3((mask & 1u) != 0u ? -1.0 : 1.0, (mask & 2u) != 0u ? -1.0 : 1.0, (mask & 4u) != 0u ? -1.0 : 1.0);
}

// The factors of an image's velocity: each reflection across a free-slip face reverses the normal component,
// across a no-slip face the whole velocity (the two compose by multiplication at edges and corners).
vec3 image_velocity_signs(uint mask) {
  vec3 s = vec3(1.0);
  for (int a = 0; a < 3; ++a) {
    if ((mask & (1u << a)) == 0u) continue;
    if (has_flag(SPH_FLAG_NO_SLIP_X << a)) s = -s;
    else s[a] = -s[a];
  }
  return s;
}

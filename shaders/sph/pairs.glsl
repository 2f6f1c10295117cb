// Every pair term of particle i (sorted slot s at x_i): its neighbours and their mirror images across the domain
// faces, read from the list the density pass wrote for this step (SphSettings::neighbour_list_stride) or, when the
// list overflowed (or there is none), found by searching the hash cells again in the same order, so both ways give
// the same terms in the same order. The includer declares u_list_stride and neighbour_lists[] (bound at the chunk's
// range, `list` the particle's offset in it) and defines
//   void visit_pair(uint j, vec3 r, float r2, vec3 reflection, vec3 velocity_signs, bool self);
// called with the neighbour's sorted slot j, r = x_i - x_j' (x_j' the neighbour or its image), r2 = |r|^2 < h^2,
// the image's reflection (mirror.glsl flip_signs: -1 on the reflected axes) and the factors of its velocity as the
// viscous term sees it (image_velocity_signs: the reflection on free-slip faces, all of the velocity reversed on
// no-slip ones), both 1 for the neighbour itself, and whether j is i itself (r = 0). Needs particles.glsl,
// neighbours.glsl and mirror.glsl.
void visit_pair(uint j, vec3 r, float r2, vec3 reflection, vec3 velocity_signs, bool self);

void for_each_pair(uint s, uint list, vec3 xi) {
  ivec3 faces = near_faces(xi);
  uint listed = u_list_stride > 0u ? neighbour_lists[list] : 0xffffffffu;
  if (listed < u_list_stride) {
    // r = y - x_j with y the particle or its image point, as the search computes it, so both give the same bits.
    for (uint k = 0u; k < listed; ++k) {
      uint e = neighbour_lists[list + 1u + k];
      uint j = e >> 3, mask = e & 7u;
      if (mask == 0u) {
        vec3 r = xi - positions[j].xyz;
        visit_pair(j, r, dot(r, r), vec3(1.0), vec3(1.0), j == s);
      } else {
        vec3 r = reflect_point(xi, mask, faces) - positions[j].xyz;
        vec3 f = flip_signs(mask);
        visit_pair(j, f * r, dot(r, r), f, image_velocity_signs(mask), false);
      }
    }
    return;
  }
  FOR_EACH_NEIGHBOUR(xi, j, r, r2) { visit_pair(j, r, r2, vec3(1.0), vec3(1.0), j == s); }
  END_FOR_EACH_NEIGHBOUR
  for (uint mask = 1u; mask < 8u; ++mask) {
    if (!image_usable(mask, faces)) continue;
    vec3 y = reflect_point(xi, mask, faces);
    vec3 f = flip_signs(mask);
    vec3 fv = image_velocity_signs(mask);
    FOR_EACH_NEIGHBOUR(y, j, r, r2) { visit_pair(j, f * r, r2, f, fv, false); }
    END_FOR_EACH_NEIGHBOUR
  }
}

#version 430
// One triangle covering the viewport, from gl_VertexID alone (no vertex attributes): clip (-1,-1), (3,-1), (-1,3).
void main() {
  vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(2.0 * corner - 1.0, 0.0, 1.0);
}

// std430 / std140 declarations of the SPH state; mirrored in src/sph/layout.h, checked against the linked programs
// by tests/gl/test_struct_layouts.cpp.
#include "common/bindings.h"
#include "common/collider_sdf.glsl"

struct Particle {
  vec4 x_m;    // position [m], mass [kg]
  vec4 v_rho;  // velocity [m/s], density [kg/m^3]
  vec4 a_p;    // acceleration [m/s^2], pressure [Pa]
  uvec4 id;    // x = stable particle id
};

struct Region {
  vec4 min_action;     // box min [m]; w = SPH_REGION_* code
  vec4 max_thickness;  // box max [m]; w = boundary slab depth [m]
  vec4 vector;         // teleport target / shift / velocity / boundary normal
  vec4 point;          // boundary plane point [m]
};

layout(std140, binding = SPH_BIND_PARAMS) uniform SphParams {
  vec4 origin_cell;  // hash origin [m]; w = cell size [m]
  vec4 kernel;       // h, h^2, rho0, spacing s
  vec4 coef;         // poly6, poly6 grad/lap, spiky grad, viscosity lap coefficients
  vec4 material;     // EOS stiffness, mu, sigma, surface threshold l
  vec4 gravity_dt;   // gravity, dt
  vec4 domain_min;   // w = sound speed
  vec4 domain_max;   // w = CFL error speed h / dt
  uvec4 counts;      // particles, table size, colliders, regions
  uvec4 step;        // step index, flags, floatBitsToUint(max compression), rigid bodies
  vec4 field_origin_h;  // solid field (SPH_FLAG_SOLID_FIELD): node 0 [m]; w = node spacing [m]
  uvec4 field_dims;     // solid field node counts; w = floatBitsToUint(fixed-point units per N s of its reaction)
  vec4 damping;         // Monaghan's artificial viscosity: x alpha c h_s [m^2/s], y 0.01 h_s^2 [m^2] (h_s = h / 2),
                        // z alpha rho0 c h_s / 10 [Pa s] (its viscosity, used at continuum solids)
};

float kernel_radius() { return kernel.x; }
float rest_density() { return kernel.z; }
float time_step() { return gravity_dt.w; }
uint particle_count() { return counts.x; }
uint table_size() { return counts.y; }
uint collider_count() { return counts.z; }
uint region_count() { return counts.w; }
uint body_count() { return step.w; }
bool has_flag(uint f) { return (step.y & f) != 0u; }

#include "render/fluid_style.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "render/range_check.h"

namespace firn::render {
namespace {

void require_colour(const glm::vec3& c, const std::string& field) {
  for (int k = 0; k < 3; ++k) require_in_range(c[k] >= 0.0f && c[k] <= 1.0f, field, c[k], "components in [0, 1]");
}

bool positive(float v) { return v > 0.0f && std::isfinite(v); }
bool non_negative(float v) { return v >= 0.0f && std::isfinite(v); }

}  // namespace

void validate(const FluidSurfaceSet& set, const char* what) {
  const std::string w(what);
  validate(set.particles, (w + ".particles").c_str());
  if (set.particles.layout.radius_offset)
    throw std::runtime_error(w + ".particles.layout.radius_offset is set; a fluid surface takes one radius, "
                             "particles.style.radius [m]");
  const FluidSurfaceStyle& s = set.style;
  const std::string f = w + ".style.";
  require_in_range(positive(s.splat_radius), f + "splat_radius", s.splat_radius, "> 0 [particle radii]");
  require_in_range(positive(s.filter_radius), f + "filter_radius", s.filter_radius, "> 0 [particle radii]");
  require_in_range(positive(s.depth_sigma), f + "depth_sigma", s.depth_sigma, "> 0 [particle radii]");
  require_in_range(s.filter_iterations >= 1 && s.filter_iterations <= 8, f + "filter_iterations",
                   s.filter_iterations, "1..8");
  for (int k = 0; k < 3; ++k)
    require_in_range(non_negative(s.absorption[k]), f + "absorption", s.absorption[k], ">= 0 [1/m] per channel");
  require_colour(s.water_colour, f + "water_colour");
  require_colour(s.sky_colour, f + "sky_colour");
  require_colour(s.horizon_colour, f + "horizon_colour");
  require_in_range(s.refractive_index >= 1.0f && std::isfinite(s.refractive_index), f + "refractive_index",
                   s.refractive_index, ">= 1");
  require_in_range(non_negative(s.refraction_shift), f + "refraction_shift", s.refraction_shift, ">= 0");
  require_in_range(non_negative(s.specular), f + "specular", s.specular, ">= 0");
  require_in_range(positive(s.shininess), f + "shininess", s.shininess, "> 0");
  const int output = static_cast<int>(s.output);
  require_in_range(output == RENDER_FLUID_OUTPUT_SHADED || output == RENDER_FLUID_OUTPUT_NORMALS, f + "output", output,
                   "kShaded (0) or kNormals (1)");
}

float fresnel_f0(float refractive_index) {
  const float r = (refractive_index - 1.0f) / (refractive_index + 1.0f);
  return r * r;
}

}  // namespace firn::render

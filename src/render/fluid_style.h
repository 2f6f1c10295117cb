#pragma once
/// How a particle set is drawn as a water surface (plain data): the screen-space fluid rendering of van der Laan,
/// Green & Sainz 2009 ("Screen Space Fluid Rendering with Curvature Flow", I3D) with the separable bilateral depth
/// filter of Green 2010 ("Screen Space Fluid Rendering for Games", GDC).
#include <glm/glm.hpp>

#include "common/bindings.h"
#include "render/particle_renderer.h"

namespace firn::render {

/// What the composite pass writes.
enum class FluidSurfaceOutput {
  kShaded = RENDER_FLUID_OUTPUT_SHADED,    ///< Fresnel reflection, refraction, absorption and a specular highlight
  kNormals = RENDER_FLUID_OUTPUT_NORMALS,  ///< debug: the view-space unit normal n as colour 0.5 n + 0.5
};

/// Appearance of a fluid surface. Lengths are given in particle radii (ParticleStyle::radius, r [m]) so that one
/// style fits any resolution; the renderer converts them to metres and, through the projection, to pixels.
struct FluidSurfaceStyle {
  /// Radius of the depth and thickness splat spheres [particle radii], > 0. Particles spaced 2 r apart on a lattice
  /// leave holes between their spheres unless the splats reach sqrt(2) r; the default 1.5 closes them.
  float splat_radius = 1.5f;
  /// World-space radius of the bilateral depth filter [particle radii], > 0 (converted to pixels per pixel from its
  /// depth; at most RENDER_FLUID_MAX_FILTER_PX pixels).
  float filter_radius = 4.0f;
  /// Range (depth-difference) standard deviation of the bilateral filter [particle radii], > 0: depth steps much
  /// larger than this (a wave in front of the water behind it) are kept sharp.
  float depth_sigma = 3.0f;
  /// Passes of the separable filter (each an x then a y pass), in [1, 8].
  int filter_iterations = 2;
  /// Beer-Lambert absorption coefficient per colour channel [1/m], >= 0: light crossing a thickness t keeps the
  /// fraction exp(-absorption t). Stylised: real water's (0.45, 0.07, 0.02) 1/m would not show at tank sizes.
  glm::vec3 absorption{18.0f, 6.0f, 2.5f};
  /// Colour of deep water (light scattered back inside it), linear RGB in [0, 1]; lit with the scene's light.
  glm::vec3 water_colour{0.06f, 0.30f, 0.62f};
  /// Reflected sky straight up, linear RGB in [0, 1]; reflections blend from horizon_colour (level) to it.
  glm::vec3 sky_colour{0.62f, 0.76f, 0.95f};
  /// Reflected sky at the horizon and below, linear RGB in [0, 1] (frame_content uses the background colour).
  glm::vec3 horizon_colour{0.16f, 0.18f, 0.22f};
  /// Refractive index of the fluid, >= 1 (water 1.333); gives Schlick's F0 = ((n - 1) / (n + 1))^2.
  float refractive_index = 1.333f;
  /// Refraction: the scene behind is looked up displaced by refraction_shift * thickness * n_xy (view space [m],
  /// n the surface normal) [dimensionless], >= 0.
  float refraction_shift = 0.5f;
  /// Strength of the Blinn-Phong highlight of the scene's light, >= 0, and its exponent, > 0.
  float specular = 0.7f;
  float shininess = 80.0f;
  FluidSurfaceOutput output = FluidSurfaceOutput::kShaded;
};

/// A particle set drawn as one fluid surface. The particles' positions come from `particles` (its buffer and
/// layout); their radius r [m] is particles.style.radius (per-particle radii, layout.radius_offset, are not
/// allowed); the colour fields of the particle style are not used.
struct FluidSurfaceSet {
  ParticleSet particles;    ///< buffer, count, layout and radius of the particles
  FluidSurfaceStyle style;  ///< how the surface looks
};

/// Checks `set`: its ParticleSet as validate(ParticleSet) does, no radius_offset, and every style field in the range
/// its docstring gives. Throws std::runtime_error naming `what` and the field.
void validate(const FluidSurfaceSet& set, const char* what = "FluidSurfaceSet");

/// Schlick's reflectance at normal incidence, ((n - 1) / (n + 1))^2, for refractive index `n` (>= 1).
float fresnel_f0(float refractive_index);

}  // namespace firn::render

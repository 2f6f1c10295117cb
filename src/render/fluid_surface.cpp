#include "render/fluid_surface.h"

#include <stdexcept>
#include <string>

#include "render/float_target.h"

namespace firn::render {

/// The images of one target size: splat depth buffer, eye depth (and its filter scratch), thickness, scene copy.
struct FluidTargets {
  int width = 0, height = 0;  ///< [pixels]
  Renderbuffer splat_depth;   ///< DEPTH24: the nearest splat wins
  FloatTarget depth, scratch, thickness;
  Texture scene;              ///< RGBA8 copy of the target's colour buffer
  Framebuffer scene_framebuffer;
};

namespace {

/// Binds `texture` to texture unit `unit`.
void bind_unit(int unit, GLuint texture) {
  glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(unit));
  glBindTexture(GL_TEXTURE_2D, texture);
}

/// Clears the bound framebuffer's colour to 0 and, when `depth`, its depth to 1.
void clear_to_zero(bool depth) {
  glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
  glClearDepth(1.0);
  glClear(GL_COLOR_BUFFER_BIT | (depth ? GL_DEPTH_BUFFER_BIT : 0u));
}

}  // namespace

FluidSurfaceRenderer::FluidSurfaceRenderer()
    : depth_splats_("render/fluid_depth.frag"), thickness_splats_("render/fluid_thickness.frag") {
  composite_ = gl::Program::render("render/fluid_fullscreen.vert", "render/fluid_composite.frag");
  vao_ = make_vertex_array();
}

FluidSurfaceRenderer::~FluidSurfaceRenderer() = default;
FluidSurfaceRenderer::FluidSurfaceRenderer(FluidSurfaceRenderer&&) noexcept = default;
FluidSurfaceRenderer& FluidSurfaceRenderer::operator=(FluidSurfaceRenderer&&) noexcept = default;

void FluidSurfaceRenderer::ensure_targets(int width, int height) {
  if (targets_ && targets_->width == width && targets_->height == height) return;
  targets_.reset();  // free the old images before allocating the new ones
  auto t = std::make_unique<FluidTargets>();
  t->width = width;
  t->height = height;
  t->splat_depth = make_renderbuffer(GL_DEPTH_COMPONENT24, width, height);
  t->depth = make_float_target(width, height, t->splat_depth.id(), "fluid depth");
  t->scratch = make_float_target(width, height, 0, "fluid filter scratch");
  t->thickness = make_float_target(width, height, 0, "fluid thickness");
  t->scene = make_texture_2d(GL_RGBA8, width, height);
  t->scene_framebuffer = make_framebuffer({{GL_COLOR_ATTACHMENT0, t->scene.id(), false}}, "fluid scene copy");
  targets_ = std::move(t);
}

void FluidSurfaceRenderer::draw(const FluidSurfaceSet& set, const ViewParams& view, const CompositeTarget& target,
                                gl::PassTimer* timer) {
  validate(set);
  if (target.width < 1 || target.height < 1)
    throw std::runtime_error("CompositeTarget size " + std::to_string(target.width) + "x" +
                             std::to_string(target.height) + "; allowed: positive pixels");
  ensure_targets(target.width, target.height);
  gl::PassTimer idle;  // disabled: every call a no-op
  gl::PassTimer& t = timer ? *timer : idle;
  t.begin("fluid splats");
  splat(set, view);
  t.end();
  const double r = set.particles.style.radius;
  DepthFilter filter;
  filter.radius = set.style.filter_radius * r;
  filter.depth_sigma = set.style.depth_sigma * r;
  filter.focal_px = view.projection[1][1] * 0.5 * target.height;
  filter.iterations = set.style.filter_iterations;
  t.begin("fluid smoothing");
  smoother_.smooth(targets_->depth, targets_->scratch, filter);
  t.end();
  t.begin("fluid composite");
  composite(set, view, target);
  t.end();
}

void FluidSurfaceRenderer::splat(const FluidSurfaceSet& set, const ViewParams& view) {
  ParticleSet splats = set.particles;
  splats.style.radius *= set.style.splat_radius;
  splats.style.mode = ColourMode::kUniform;  // the splat shaders read positions only
  FluidTargets& t = *targets_;
  glViewport(0, 0, t.width, t.height);
  glDisable(GL_BLEND);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glDepthMask(GL_TRUE);
  glBindFramebuffer(GL_FRAMEBUFFER, t.depth.framebuffer.id());
  clear_to_zero(true);
  depth_splats_.draw(splats, view);

  glBindFramebuffer(GL_FRAMEBUFFER, t.thickness.framebuffer.id());
  clear_to_zero(false);
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFunc(GL_ONE, GL_ONE);
  thickness_splats_.draw(splats, view);
  glDisable(GL_BLEND);
}

void FluidSurfaceRenderer::composite(const FluidSurfaceSet& set, const ViewParams& view,
                                     const CompositeTarget& target) {
  FluidTargets& t = *targets_;
  // The scene behind the fluid, for refraction: the target's colour as it is now.
  glBindFramebuffer(GL_READ_FRAMEBUFFER, target.framebuffer);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, t.scene_framebuffer.id());
  glBlitFramebuffer(0, 0, t.width, t.height, 0, 0, t.width, t.height, GL_COLOR_BUFFER_BIT, GL_NEAREST);

  const FluidSurfaceStyle& s = set.style;
  set_view_uniforms(composite_, view);
  composite_.set("u_absorption", s.absorption);
  composite_.set("u_water_colour", s.water_colour);
  composite_.set("u_sky_colour", s.sky_colour);
  composite_.set("u_horizon_colour", s.horizon_colour);
  composite_.set("u_f0", fresnel_f0(s.refractive_index));
  composite_.set("u_refraction_shift", s.refraction_shift);
  composite_.set("u_specular", s.specular);
  composite_.set("u_shininess", s.shininess);
  composite_.set("u_output", static_cast<int>(s.output));

  glBindFramebuffer(GL_FRAMEBUFFER, target.framebuffer);
  glViewport(0, 0, target.width, target.height);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glDepthMask(GL_TRUE);
  bind_unit(RENDER_FLUID_UNIT_DEPTH, t.depth.texture.id());
  bind_unit(RENDER_FLUID_UNIT_THICKNESS, t.thickness.texture.id());
  bind_unit(RENDER_FLUID_UNIT_SCENE, t.scene.id());
  composite_.use();
  draw_fullscreen_triangle(vao_);
  glUseProgram(0);
  for (int unit : {RENDER_FLUID_UNIT_DEPTH, RENDER_FLUID_UNIT_THICKNESS, RENDER_FLUID_UNIT_SCENE}) bind_unit(unit, 0);
  glActiveTexture(GL_TEXTURE0);
}

std::vector<float> FluidSurfaceRenderer::read_depth() const {
  return targets_ ? read_float_target(targets_->depth) : std::vector<float>{};
}

std::vector<float> FluidSurfaceRenderer::read_thickness() const {
  return targets_ ? read_float_target(targets_->thickness) : std::vector<float>{};
}

}  // namespace firn::render

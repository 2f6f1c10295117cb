#include "render/renderer.h"

#include <stdexcept>
#include <string>

#include "gl/error.h"

namespace firn::render {
namespace {

void check_size(int width, int height) {
  if (width < 1 || height < 1)
    throw std::runtime_error("Renderer size " + std::to_string(width) + "x" + std::to_string(height) +
                             "; allowed: positive pixels");
}

}  // namespace

Renderer::Renderer(int width, int height) : width_(width), height_(height) { check_size(width, height); }

void Renderer::resize(int width, int height) {
  check_size(width, height);
  width_ = width;
  height_ = height;
}

void Renderer::render(const Camera& camera, const FrameContent& content) {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, width_, height_);
  draw(camera, content, {0, width_, height_});
}

void Renderer::render(const Camera& camera, const FrameContent& content, const Offscreen& target) {
  target.bind();
  draw(camera, content, {target.framebuffer(), target.width(), target.height()});
}

std::vector<uint8_t> Renderer::capture(const Camera& camera, const FrameContent& content) {
  if (!capture_target_ || capture_target_->width() != width_ || capture_target_->height() != height_) {
    capture_target_.reset();  // free the old target before allocating the new one
    capture_target_.emplace(width_, height_);
  }
  render(camera, content, *capture_target_);
  return capture_target_->read_pixels();
}

void Renderer::draw(const Camera& camera, const FrameContent& content, const CompositeTarget& target) {
  // Everything that can throw on bad input runs before the first GL call of the frame.
  const ViewParams view = make_view_params(camera, target.width, target.height, content.lighting);
  for (size_t i = 0; i < content.particles.size(); ++i)
    validate(content.particles[i], ("FrameContent.particles[" + std::to_string(i) + "]").c_str());
  for (size_t i = 0; i < content.polyhedra.size(); ++i)
    validate(content.polyhedra[i], ("FrameContent.polyhedra[" + std::to_string(i) + "]").c_str());
  for (size_t i = 0; i < content.fluid_surfaces.size(); ++i)
    validate(content.fluid_surfaces[i], ("FrameContent.fluid_surfaces[" + std::to_string(i) + "]").c_str());
  const SceneGeometry geometry = build_scene_geometry(content, camera.target);

  glDisable(GL_BLEND);
  glDisable(GL_CULL_FACE);
  glDisable(GL_SCISSOR_TEST);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glDepthMask(GL_TRUE);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glClearColor(content.background.r, content.background.g, content.background.b, 1.0f);
  glClearDepth(1.0);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  gl::check("the frame set-up (glClear and state)");
  // A GL error in any pass ends the run (gl::GlError, exit 1) naming the pass; the driver's message names the call.
  {
    gl::PassScope pass("render scene");
    timer_.begin("scene");
    scene_.draw(geometry, content, view, particles_);
    timer_.end();
    gl::check("SceneRenderer::draw");
  }
  {
    gl::PassScope pass("render particles");
    timer_.begin("particles");
    for (const ParticleSet& set : content.particles) particles_.draw(set, view);
    timer_.end();
    gl::check("ParticleRenderer::draw");
  }
  {
    gl::PassScope pass("render polyhedra");
    timer_.begin("polyhedra");
    for (const PolyhedronSet& set : content.polyhedra) polyhedra_.draw(set, view);
    timer_.end();
    gl::check("PolyhedronRenderer::draw");
  }
  gl::PassScope pass("render fluid surface");
  for (const FluidSurfaceSet& set : content.fluid_surfaces) fluid_.draw(set, view, target, &timer_);
  gl::check("FluidSurfaceRenderer::draw");
}

}  // namespace firn::render

// Particle rendering: impostor coverage, depth, shading and colour modes against closed forms.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <span>
#include <vector>

#include "gl/buffer.h"
#include "mpm/layout.h"
#include "render/offscreen.h"
#include "render/renderer.h"
#include "render_test_util.h"

namespace firn::render::test {
namespace {

using mpm::GpuParticle;

GpuParticle particle(const glm::dvec3& x, const glm::dvec3& v = glm::dvec3(0.0), float jp = 1.0f,
                     float material = 0.0f) {
  GpuParticle p{};
  p.x_m = glm::vec4(glm::vec3(x), 0.01f);
  p.v_vol = glm::vec4(glm::vec3(v), 1e-6f);
  for (int k = 0; k < 3; ++k) {
    p.fe[k] = glm::vec4(0.0f);
    p.fe[k][k] = 1.0f;
    p.fp[k] = p.fe[k];
  }
  p.fe[0].w = jp;
  p.fe[1].w = material;
  return p;
}

gl::Buffer upload(const std::vector<GpuParticle>& ps) { return buffer_of(ps); }

ParticleSet mpm_set(const gl::Buffer& buffer, size_t count, const ParticleStyle& style = {}) {
  return ParticleSet{buffer.id(), static_cast<uint32_t>(count), mpm_particle_layout(), style};
}

/// A sphere as (centre, radius) records: the generic layout with a per-particle radius.
ParticleSet sphere_set(const gl::Buffer& buffer, size_t count, const glm::vec3& colour) {
  ParticleSet s{buffer.id(), static_cast<uint32_t>(count), {}, {}};
  s.layout.stride_bytes = 16;
  s.layout.radius_offset = 12;
  s.style.colour = colour;
  return s;
}

/// Exact ray-sphere test from the eye through the centre of pixel (x, y): the ray parameter of the first hit, or -1.
/// `rim` receives |distance from the centre to the ray - r| [m] so that callers can skip silhouette pixels.
double hit_sphere(const Camera& cam, int w, int h, int x, int y, const glm::dvec3& c, double r, double& rim) {
  const glm::dvec3 dir = pixel_ray(cam, w, h, x + 0.5, y + 0.5);
  const glm::dvec3 oc = c - cam.eye;
  const double b = glm::dot(oc, dir);
  const double perp = glm::length(oc - b * dir);
  rim = std::abs(perp - r);
  if (perp >= r || b <= 0.0) return -1.0;
  return b - std::sqrt(r * r - perp * perp);
}

/// World size of one pixel at distance `t` along a ray [m].
double pixel_size(const Camera& cam, int h, double t) {
  return t * 2.0 * std::tan(glm::radians(cam.fov_deg) * 0.5) / h;
}

using RenderTest = RenderFixture;

TEST_F(RenderTest, ParticleCentresAreLitAndGapsShowTheBackground) {
  std::mt19937_64 rng(test_seed());
  const Bounds box{{-0.7, 0.05, -0.45}, {0.55, 0.83, 0.37}};
  std::vector<GpuParticle> ps;
  std::uniform_real_distribution<double> u01(0.0, 1.0), uv(-2.0, 2.0);
  for (int i = 0; i < 513; ++i)
    ps.push_back(particle(box.min + (box.max - box.min) * glm::dvec3(u01(rng), u01(rng), u01(rng)),
                          {uv(rng), uv(rng), uv(rng)}));
  const gl::Buffer buffer = upload(ps);
  FrameContent content;
  content.ground.reset();
  content.particles.push_back(mpm_set(buffer, ps.size()));
  const float radius = content.particles[0].style.radius = 0.028f;
  const glm::vec3 snow = content.particles[0].style.colour;
  const Camera cam = frame_bounds(box.min, box.max, double(kWidth) / kHeight);
  const Image img = render(cam, content);
  const glm::ivec3 bg = to_bytes(content.background);

  // Every centre is lit snow: at least the ambient share of the colour, at most the full colour, blue-tinted.
  const glm::ivec3 lo = to_bytes(snow * content.lighting.ambient) - 2, hi = to_bytes(snow) + 2;
  std::vector<uint8_t> near_particle(static_cast<size_t>(kWidth * kHeight), 0);
  const double focal = kHeight * 0.5 / std::tan(glm::radians(cam.fov_deg) * 0.5);
  for (const GpuParticle& p : ps) {
    const glm::dvec3 c(glm::vec3(p.x_m));
    const glm::dvec3 q = project_to_pixels(cam, kWidth, kHeight, c);
    ASSERT_TRUE(img.inside(q.x, q.y)) << "frame_bounds left a particle out of view";
    const glm::ivec3 px = img.at(int(q.x), int(q.y));
    EXPECT_GT(max_diff(px, bg), 20) << "centre (" << q.x << ", " << q.y << ") shows the background";
    EXPECT_TRUE(glm::all(glm::greaterThanEqual(px, lo)) && glm::all(glm::lessThanEqual(px, hi)) && px.z >= px.x)
        << "centre pixel " << px.x << "," << px.y << "," << px.z << " is not shaded snow";
    // Mark a generous neighbourhood (1.5 x the projected radius + 2 px) as possibly covered.
    const double d = glm::length(c - cam.eye);
    const double reach = 1.5 * focal * radius / std::sqrt(d * d - radius * radius) + 2.0;
    for (int y = std::max(0, int(q.y - reach)); y <= std::min(kHeight - 1, int(q.y + reach)); ++y)
      for (int x = std::max(0, int(q.x - reach)); x <= std::min(kWidth - 1, int(q.x + reach)); ++x)
        near_particle[static_cast<size_t>(y * kWidth + x)] = 1;
  }
  int checked = 0, wrong = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      if (near_particle[static_cast<size_t>(y * kWidth + x)]) continue;
      ++checked;
      if (max_diff(img.at(x, y), bg) > 1 && wrong++ == 0) ADD_FAILURE() << "pixel " << x << "," << y << " not background";
    }
  EXPECT_EQ(wrong, 0);
  EXPECT_GT(checked, kWidth * kHeight / 5) << "too few free pixels to test the background";
}

TEST_F(RenderTest, NearerParticleOccludesFartherOneInEitherDrawOrder) {
  Camera cam;
  cam.eye = {0.2, 0.5, 3.0};
  cam.target = {0.0, 0.4, 0.0};
  const glm::dvec3 far_c{0.0, 0.4, -0.5};
  const glm::dvec3 near_c = far_c + 0.4 * glm::normalize(cam.eye - far_c);  // same line of sight
  const gl::Buffer far_b = upload({particle(far_c)}), near_b = upload({particle(near_c)});
  const glm::vec3 red{0.9f, 0.1f, 0.1f}, green{0.1f, 0.8f, 0.2f};
  ParticleStyle far_style, near_style;
  far_style.radius = 0.2f;
  far_style.colour = red;
  near_style.radius = 0.05f;
  near_style.colour = green;
  const glm::dvec3 q = project_to_pixels(cam, kWidth, kHeight, far_c);
  // A point on the far sphere's rim direction, outside the near sphere's disc.
  const glm::dvec3 side = glm::normalize(glm::cross(cam.eye - far_c, glm::dvec3(0, 1, 0)));
  const glm::dvec3 q_ring = project_to_pixels(cam, kWidth, kHeight, far_c + side * 0.14);
  for (bool near_first : {false, true}) {
    SCOPED_TRACE(near_first ? "near set drawn first" : "far set drawn first");
    FrameContent content;
    content.ground.reset();
    content.lighting = flat_lighting();
    content.particles = {mpm_set(far_b, 1, far_style), mpm_set(near_b, 1, near_style)};
    if (near_first) std::swap(content.particles[0], content.particles[1]);
    const Image img = render(cam, content);
    EXPECT_LE(max_diff(img.at(int(q.x), int(q.y)), to_bytes(green)), 2);
    EXPECT_LE(max_diff(img.at(int(q_ring.x), int(q_ring.y)), to_bytes(red)), 2);
  }
}

TEST_F(RenderTest, ImpostorDepthIsTheSphereSurfaceNotTheQuad) {
  // B's centre lies behind A's centre and B's front point behind A's, yet around x = 0.45 B's surface is nearer
  // (z = 0.30 vs 0.22): any flat impostor depth (at the centre or at the front point) lets A win there.
  Camera cam;
  cam.eye = {0.0, 0.0, 5.0};
  cam.target = {0.0, 0.0, 0.0};
  const glm::vec3 red{0.9f, 0.1f, 0.1f}, green{0.1f, 0.8f, 0.2f};
  const gl::Buffer a = buffer_of(std::vector<glm::vec4>{{0.0f, 0.0f, 0.0f, 0.5f}});
  const gl::Buffer b = buffer_of(std::vector<glm::vec4>{{0.4f, 0.0f, -0.05f, 0.35f}});
  for (bool a_first : {true, false}) {
    SCOPED_TRACE(a_first ? "A drawn first" : "B drawn first");
    FrameContent content;
    content.ground.reset();
    content.lighting = flat_lighting();
    content.particles = {sphere_set(a, 1, red), sphere_set(b, 1, green)};
    if (!a_first) std::swap(content.particles[0], content.particles[1]);
    const Image img = render(cam, content);
    auto colour_at = [&](const glm::dvec3& p) {
      const glm::dvec3 q = project_to_pixels(cam, kWidth, kHeight, p);
      return img.at(int(q.x), int(q.y));
    };
    EXPECT_LE(max_diff(colour_at({0.45, 0.0, 0.296}), to_bytes(green)), 2);
    EXPECT_LE(max_diff(colour_at({0.47, 0.1, 0.275}), to_bytes(green)), 2);
    EXPECT_LE(max_diff(colour_at({0.1, 0.0, 0.49}), to_bytes(red)), 2);
    EXPECT_LE(max_diff(colour_at({-0.3, 0.1, 0.39}), to_bytes(red)), 2);
  }
}

TEST_F(RenderTest, SilhouetteMatchesExactRayCastIncludingOffAxis) {
  std::mt19937_64 rng(test_seed());
  Camera cam;
  cam.eye = {0.3, 0.2, 4.0};
  cam.target = {0.0, 0.0, 0.0};
  cam.fov_deg = 50.0;
  std::uniform_real_distribution<double> u(-0.6, 0.6), ur(0.1, 0.45);
  // One random sphere, one near the image corner (where perspective stretches the silhouette most) and one large
  // and close, whose silhouette cone is 7% wider than the sphere.
  const glm::dvec3 corner_dir = pixel_ray(cam, kWidth, kHeight, 30.0, 22.0);
  const glm::dvec3 close_dir = pixel_ray(cam, kWidth, kHeight, 250.0, 180.0);
  const std::vector<glm::vec4> spheres{{u(rng), u(rng), u(rng), ur(rng)},
                                       glm::vec4(glm::vec3(cam.eye + 3.5 * corner_dir), 0.3f),
                                       glm::vec4(glm::vec3(cam.eye + 1.3 * close_dir), 0.45f)};
  const gl::Buffer buffer = buffer_of(spheres);
  FrameContent content;
  content.ground.reset();
  content.lighting = flat_lighting();
  content.particles = {sphere_set(buffer, spheres.size(), {1.0f, 1.0f, 1.0f})};
  const Image img = render(cam, content);
  const glm::ivec3 bg = to_bytes(content.background);
  int covered = 0, wrong = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      bool hit = false, ambiguous = false;
      for (const glm::vec4& s : spheres) {
        double rim = 0.0;
        const double t = hit_sphere(cam, kWidth, kHeight, x, y, glm::dvec3(glm::vec3(s)), s.w, rim);
        hit = hit || t > 0.0;
        ambiguous = ambiguous || rim < 0.25 * pixel_size(cam, kHeight, glm::length(glm::dvec3(glm::vec3(s)) - cam.eye));
      }
      if (ambiguous) continue;
      covered += hit;
      const bool drawn = max_diff(img.at(x, y), bg) > 1;
      if (drawn != hit && wrong++ < 5) ADD_FAILURE() << "pixel " << x << "," << y << " drawn=" << drawn << " hit=" << hit;
    }
  EXPECT_EQ(wrong, 0);
  EXPECT_GT(covered, 500);
}

TEST_F(RenderTest, LambertShadingMatchesClosedForm) {
  Camera cam;
  cam.eye = {0.5, 1.0, 3.0};
  cam.target = {0.0, 0.0, 0.0};
  const glm::dvec3 c{0.1, -0.05, 0.0};
  const double r = 0.6;
  const glm::vec3 colour{0.8f, 0.6f, 0.4f};
  const gl::Buffer buffer = buffer_of(std::vector<glm::vec4>{glm::vec4(glm::vec3(c), float(r))});
  FrameContent content;
  content.ground.reset();
  content.lighting.direction = {0.6, 0.5, -0.4};  // from the side and behind: both lit and shadowed parts show
  content.particles = {sphere_set(buffer, 1, colour)};
  const Image img = render(cam, content);
  const glm::dvec3 l = glm::normalize(content.lighting.direction);
  int checked = 0, shadowed = 0, lit = 0, wrong = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      double rim = 0.0;
      const double t = hit_sphere(cam, kWidth, kHeight, x, y, c, r, rim);
      if (t <= 0.0 || rim < 2.0 * pixel_size(cam, kHeight, t)) continue;
      const glm::dvec3 n = (cam.eye + t * pixel_ray(cam, kWidth, kHeight, x + 0.5, y + 0.5) - c) / r;
      const double ndotl = glm::dot(n, l);
      const glm::vec3 expected =
          colour * float(content.lighting.ambient + content.lighting.diffuse * std::max(ndotl, 0.0));
      ++checked;
      shadowed += ndotl < 0.0;
      lit += ndotl > 0.5;
      if (max_diff(img.at(x, y), to_bytes(expected)) > 3 && wrong++ < 5)
        ADD_FAILURE() << "pixel " << x << "," << y << " n.l=" << ndotl;
    }
  EXPECT_EQ(wrong, 0);
  EXPECT_GT(checked, 3000);
  EXPECT_GT(shadowed, 100);
  EXPECT_GT(lit, 100);
}

TEST_F(RenderTest, ColourModesFollowTheColourMapAndPalette) {
  std::mt19937_64 rng(test_seed());
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<GpuParticle> ps;
  std::vector<double> jp, speed;
  std::vector<int> material;
  const int n = 9;
  for (int i = 0; i < n; ++i) {
    jp.push_back(0.75 + 0.5 * u(rng));  // range [0.9, 1.1] below: some values clamp at both ends
    speed.push_back(3.0 * u(rng));
    material.push_back(i == n - 1 ? 13 : i);  // 13 wraps to 5
    const glm::dvec3 dir = glm::normalize(glm::dvec3(u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5));
    ps.push_back(particle({-0.8 + 0.2 * i, 0.3 * (i % 2), 0.0}, dir * speed.back(), float(jp.back()),
                          float(material.back())));
  }
  const gl::Buffer buffer = upload(ps);
  Camera cam;
  cam.eye = {0.0, 0.15, 2.6};
  cam.target = {0.0, 0.15, 0.0};
  struct Case {
    ColourMode mode;
    ColourMap map;
    float lo, hi;
  };
  for (const Case& k : {Case{ColourMode::kScalar, ColourMap::kViridis, 0.9f, 1.1f},
                        Case{ColourMode::kSpeed, ColourMap::kCoolWarm, 0.0f, 2.5f},
                        Case{ColourMode::kScalar, ColourMap::kIce, 1.1f, 0.9f},  // reversed range
                        Case{ColourMode::kMaterial, ColourMap::kGrey, 0.0f, 1.0f}}) {
    SCOPED_TRACE("mode " + std::to_string(int(k.mode)) + " map " + std::to_string(int(k.map)));
    ParticleStyle style;
    style.radius = 0.06f;
    style.mode = k.mode;
    style.map = k.map;
    style.range_min = k.lo;
    style.range_max = k.hi;
    FrameContent content;
    content.ground.reset();
    content.lighting = flat_lighting();
    content.particles = {mpm_set(buffer, ps.size(), style)};
    const Image img = render(cam, content);
    for (int i = 0; i < n; ++i) {
      const double value = k.mode == ColourMode::kSpeed ? speed[size_t(i)] : jp[size_t(i)];
      const glm::vec3 expected =
          k.mode == ColourMode::kMaterial
              ? style.material_colours[size_t(material[size_t(i)] % RENDER_MAX_MATERIALS)]
              : sample_colour_map(k.map, (value - k.lo) / (k.hi - k.lo));
      const glm::dvec3 q = project_to_pixels(cam, kWidth, kHeight, glm::dvec3(glm::vec3(ps[size_t(i)].x_m)));
      EXPECT_LE(max_diff(img.at(int(q.x), int(q.y)), to_bytes(expected)), 2) << "particle " << i;
    }
  }
}

TEST_F(RenderTest, InvalidParticleSetsThrowBeforeDrawing) {
  const gl::Buffer buffer = upload(std::vector<GpuParticle>(513, particle({0, 0, 0})));
  const Camera cam;
  auto attempt = [&](auto&& edit) {
    FrameContent content;
    content.particles = {mpm_set(buffer, 513)};
    edit(content.particles[0]);
    EXPECT_THROW(renderer_->capture(cam, content), std::runtime_error);
    expect_no_gl_error("a rejected frame");
  };
  attempt([](ParticleSet& s) { s.layout.stride_bytes = 126; });
  attempt([](ParticleSet& s) { s.layout.position_offset = 120; });
  attempt([](ParticleSet& s) { s.layout.scalar_offset = 2; });
  attempt([](ParticleSet& s) { s.count = 514; });
  attempt([](ParticleSet& s) { s.buffer = 0; });
  attempt([](ParticleSet& s) { s.style.radius = 0.0f; });
  attempt([](ParticleSet& s) {
    s.style.mode = ColourMode::kSpeed;
    s.layout.velocity_offset.reset();
  });
  attempt([](ParticleSet& s) {
    s.style.mode = ColourMode::kScalar;
    s.style.range_max = s.style.range_min;
  });
  FrameContent ok;
  ok.particles = {mpm_set(buffer, 0)};  // an empty set is fine, whatever its buffer
  ok.particles[0].buffer = 0;
  EXPECT_NO_THROW(render(cam, ok));
}

TEST_F(RenderTest, DrawingRestoresTheStorageBindingItUses) {
  const gl::Buffer solver_buffer(256), drawn = upload({particle({0, 0, 0})});
  glBindBufferRange(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_PARTICLES, solver_buffer.id(), 0, 128);
  FrameContent content = FrameContent{};
  content.particles = {mpm_set(drawn, 1)};
  Collider ball;  // sphere colliders are drawn from the renderer's own buffer: restored as well
  ball.shape = ColliderShape::kSphere;
  ball.radius = 0.2;
  content.colliders = {ball};
  render(Camera{}, content);
  GLint bound = 0;
  GLint64 size = 0;
  glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, RENDER_BIND_PARTICLES, &bound);
  glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_SIZE, RENDER_BIND_PARTICLES, &size);
  EXPECT_EQ(GLuint(bound), solver_buffer.id());
  EXPECT_EQ(size, 128);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_PARTICLES, 0);
  expect_no_gl_error("binding checks");
}

TEST_F(RenderTest, OffscreenReadsRowsTopDownAndRejectsBadSizes) {
  Offscreen target(7, 5);
  target.bind();
  glClearColor(0.0f, 0.0f, 1.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 0, 7, 1);  // GL's bottom row
  glClearColor(1.0f, 0.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  const Image img{7, 5, target.read_pixels()};
  ASSERT_EQ(img.rgba.size(), 7u * 5u * 4u);
  for (int x = 0; x < 7; ++x) {
    EXPECT_EQ(img.at(x, 4), glm::ivec3(255, 0, 0));
    EXPECT_EQ(img.at(x, 0), glm::ivec3(0, 0, 255));
  }
  expect_no_gl_error("Offscreen");
  EXPECT_THROW(Offscreen(0, 5), std::runtime_error);
  EXPECT_THROW(Offscreen(7, -1), std::runtime_error);
}

TEST_F(RenderTest, RenderIntoACallerTargetUsesItsSize) {
  const glm::dvec3 c{0.3, -0.2, 0.1};
  const gl::Buffer buffer = upload({particle(c)});
  FrameContent content;
  content.ground.reset();
  content.lighting = flat_lighting();
  content.particles = {mpm_set(buffer, 1)};
  content.particles[0].style.radius = 0.05f;
  Camera cam;
  cam.eye = {0.0, 0.0, 2.0};
  cam.target = {0.0, 0.0, 0.0};
  Offscreen target(64, 37);
  renderer_->render(cam, content, target);
  expect_no_gl_error("Renderer::render(Offscreen)");
  const Image img{64, 37, target.read_pixels()};
  const glm::dvec3 q = project_to_pixels(cam, 64, 37, c);
  EXPECT_LE(max_diff(img.at(int(q.x), int(q.y)), to_bytes(content.particles[0].style.colour)), 2);
  EXPECT_LE(max_diff(img.at(2, 2), to_bytes(content.background)), 1);
}

}  // namespace
}  // namespace firn::render::test

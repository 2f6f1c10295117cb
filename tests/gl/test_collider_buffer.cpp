// gl::ColliderBuffer: the GPU copy follows the colliders through construction, motion and replacement.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/gpu_collider.h"
#include "gl/collider_buffer.h"
#include "support/gl_context.h"

using namespace firn;

namespace {

std::vector<Collider> some_colliders() {
  Collider plane;
  plane.point = {0.1, -0.2, 0.3};
  plane.velocity = {0.0, 0.5, 0.0};
  plane.friction = 0.3;
  Collider sphere;
  sphere.shape = ColliderShape::kSphere;
  sphere.point = {1.0, 2.0, -3.0};
  sphere.radius = 0.25;
  sphere.velocity = {-1.0, 0.0, 2.0};
  sphere.boundary = Boundary::kSticky;
  Collider box;
  box.shape = ColliderShape::kBox;
  box.half_extent = {0.5, 0.1, 0.2};
  return {plane, sphere, box};
}

/// The GPU copy's first colliders.size() entries equal the host colliders converted, byte for byte.
void expect_uploaded(const gl::ColliderBuffer& b) {
  ASSERT_EQ(b.count(), b.colliders().size());
  const std::vector<GpuCollider> gpu = b.buffer().read<GpuCollider>();
  const std::vector<GpuCollider> want = to_gpu_colliders(b.colliders());
  ASSERT_GE(gpu.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(std::memcmp(&gpu[i], &want[i], sizeof(GpuCollider)), 0) << "collider " << i;
}

}  // namespace

TEST(ColliderBuffer, UploadsPosesAndReplaces) {
  test::gl_context();
  const std::vector<Collider> start = some_colliders();
  gl::ColliderBuffer b(start);
  EXPECT_EQ(b.gpu_bytes(), 3 * sizeof(GpuCollider));
  expect_uploaded(b);

  // Poses are functions of time: the same time gives the same pose, whatever happened in between.
  const double t = 0.1875;
  b.set_time(0.0625);
  b.set_time(t);
  for (size_t i = 0; i < start.size(); ++i) {
    EXPECT_EQ(b.colliders()[i].point, start[i].point + t * start[i].velocity);
    EXPECT_EQ(b.at_zero()[i].point, start[i].point);
  }
  expect_uploaded(b);

  std::vector<Collider> more = some_colliders();
  more.insert(more.end(), start.begin(), start.end());
  more.back().point = {7.0, 8.0, 9.0};
  b.set(more, 2.0);  // grows
  EXPECT_EQ(b.gpu_bytes(), 6 * sizeof(GpuCollider));
  EXPECT_EQ(b.colliders().back().point, glm::dvec3(7.0, 8.0, 9.0) + 2.0 * more.back().velocity);
  expect_uploaded(b);
  b.set({start[1]}, 0.0);  // shrinks the list, keeps the buffer
  EXPECT_EQ(b.count(), 1u);
  expect_uploaded(b);
}

TEST(ColliderBuffer, NoCollidersStillHaveABuffer) {
  test::gl_context();
  gl::ColliderBuffer b({});
  EXPECT_EQ(b.count(), 0u);
  EXPECT_EQ(b.gpu_bytes(), sizeof(GpuCollider));
  b.set_time(1.0);
  EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
}

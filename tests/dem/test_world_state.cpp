// Checkpoint state of a grain world (dem/world_state.h): save -> restore into a freshly made world -> both continue
// bit for bit through contacts with plane, box and mesh walls, one of them moving; a world of another scene is
// refused and left as it was.
#include <cstring>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "core/error.h"
#include "dem/closest_feature_oracle.h"
#include "dem/world_state.h"
#include "dem/world_test_util.h"

namespace firn::dem {
namespace {

using glm::dvec3;

/// 2 cm grains poured onto a mesh floor around a shaking box, between plane side walls.
DemSettings pile_settings(int count, std::uint64_t seed) {
  DemSettings s;
  s.dt = 1e-4;
  s.contact.stiffness = 1e8;
  s.contact.restitution = 0.4;
  s.contact.friction = 0.5;
  GrainTypeSettings g;
  g.size = {0.02, 0.016, 0.012};
  g.vertices = 14;
  g.count = count;
  g.region_min = {0.0, 0.08, 0.0};
  g.region_max = {0.2, 0.5, 0.2};
  g.velocity = {0.0, -1.0, 0.0};
  g.seed = seed;
  s.grains.push_back(g);
  WallSettings floor;
  floor.type = WallType::kMesh;
  floor.vertices = {{-0.1, 0, -0.1}, {0.3, 0, -0.1}, {0.3, 0, 0.3}, {-0.1, 0, 0.3}};
  floor.triangles = {{0, 2, 1}, {0, 3, 2}};
  s.walls.push_back(floor);
  WallSettings block;
  block.type = WallType::kBox;
  block.box_min = {0.08, 0.0, 0.08};
  block.box_max = {0.12, 0.05, 0.12};
  block.motion.type = WallMotionType::kSinusoidal;
  block.motion.direction = {1, 0, 0};
  block.motion.amplitude = 0.005;
  block.motion.frequency = 20;
  s.walls.push_back(block);
  for (const auto& [p, n] : {std::pair{dvec3(0), dvec3(1, 0, 0)}, std::pair{dvec3(0.2, 0, 0), dvec3(-1, 0, 0)},
                             std::pair{dvec3(0), dvec3(0, 0, 1)}, std::pair{dvec3(0, 0, 0.2), dvec3(0, 0, -1)}})
    s.walls.push_back(testing::plane_wall(p, n));
  return s;
}

std::vector<std::byte> saved(const World& w) {
  BinaryWriter out;
  save_world(w, out);
  return out.bytes();
}

/// The grains' bodies and Gear states compared as bytes.
bool same_grains(const World& a, const World& b) {
  if (a.grains.size() != b.grains.size()) return false;
  for (std::size_t i = 0; i < a.grains.size(); ++i) {
    const RigidBody &x = a.grains[i].body, &y = b.grains[i].body;
    if (std::memcmp(&x.position, &y.position, sizeof x.position) != 0 ||
        std::memcmp(&x.orientation, &y.orientation, sizeof x.orientation) != 0 ||
        std::memcmp(&x.velocity, &y.velocity, sizeof x.velocity) != 0 ||
        std::memcmp(&x.angular_velocity, &y.angular_velocity, sizeof x.angular_velocity) != 0 ||
        std::memcmp(&a.grains[i].gear.translation, &b.grains[i].gear.translation, sizeof(GearState<dvec3>)) != 0)
      return false;
  }
  return true;
}

}  // namespace

TEST(WorldState, RestoredWorldContinuesBitForBit) {
  std::mt19937_64 rng(oracle::test_seed());
  const DemSettings s = pile_settings(23, rng());
  World a = make_world(s, {0, -9.81, 0});
  for (int k = 0; k < 1500; ++k) step(a);
  std::printf("  %zu grains: %d contacts (%d with walls), %zu cached pairs, %zu wall springs at the checkpoint\n",
              a.grains.size(), a.last.contacts, a.last.wall_contacts, a.pairs.size(), a.wall_springs.size());
  ASSERT_GT(a.last.grain_contacts, 0) << "the scene should have grain contacts at the checkpoint";
  ASSERT_GT(a.last.wall_contacts, 0);
  const auto bytes = saved(a);

  World b = make_world(s, {0, -9.81, 0});
  BinaryReader in(bytes, "test checkpoint");
  restore_world(b, in);
  EXPECT_EQ(saved(b), bytes) << "save after restore gives other bytes";
  EXPECT_TRUE(same_grains(a, b));
  for (int k = 0; k < 700; ++k) {
    step(a);
    step(b);
  }
  EXPECT_EQ(a.time, b.time);
  EXPECT_EQ(a.last.contacts, b.last.contacts);
  EXPECT_TRUE(same_grains(a, b));
  EXPECT_EQ(saved(a), saved(b));
  World fresh = make_world(s, {0, -9.81, 0});
  for (int k = 0; k < 700; ++k) step(fresh);
  EXPECT_FALSE(same_grains(fresh, b));
}

TEST(WorldState, AnotherSceneIsRefusedAndLeftAsItWas) {
  std::mt19937_64 rng(oracle::test_seed());
  const DemSettings s = pile_settings(9, rng());
  World a = make_world(s, {0, -9.81, 0});
  for (int k = 0; k < 50; ++k) step(a);
  const auto bytes = saved(a);
  DemSettings more = s;
  more.grains[0].count = 10;
  World other = make_world(more, {0, -9.81, 0});
  const auto before = saved(other);
  BinaryReader in(bytes, "ckpt");
  EXPECT_THROW(restore_world(other, in), InputError);
  EXPECT_EQ(saved(other), before);
  // A checkpoint cut anywhere is refused too, and the world is unchanged.
  World b = make_world(s, {0, -9.81, 0});
  const auto fresh_bytes = saved(b);
  for (std::size_t cut : {std::size_t{3}, bytes.size() / 2, bytes.size() - 1}) {
    const std::vector<std::byte> part(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut));
    BinaryReader truncated(part, "ckpt");
    EXPECT_THROW(restore_world(b, truncated), InputError) << "cut at " << cut;
    EXPECT_EQ(saved(b), fresh_bytes);
  }
}

namespace {

/// Saves `damaged` (a world of settings `s` edited by hand), restores it into a fresh world of `s` and expects the
/// restore to throw InputError naming the file and `name`, with the fresh world left as it was.
void expect_refused_naming(const World& damaged, const DemSettings& s, const std::string& name) {
  const auto bytes = saved(damaged);
  World b = make_world(s, {0, -9.81, 0});
  const auto before = saved(b);
  BinaryReader in(bytes, "ckpt.bin");
  try {
    restore_world(b, in);
    ADD_FAILURE() << "restored a checkpoint with a non-finite " << name;
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("ckpt.bin"), std::string::npos) << what;
    EXPECT_NE(what.find(name), std::string::npos) << what;
  }
  EXPECT_EQ(saved(b), before);
}

}  // namespace

// A checkpoint holding a pose no run writes (a hand-made one: NaN, an infinite speed) is refused as input naming the
// grain and the file, and the world is left as it was (before: std::runtime_error from the first step, exit 1).
TEST(WorldState, NonFinitePoseIsRefusedNamingTheGrain) {
  std::mt19937_64 rng(oracle::test_seed());
  const DemSettings s = pile_settings(9, rng());
  for (const int field : {0, 1}) {
    World a = make_world(s, {0, -9.81, 0});
    for (int k = 0; k < 20; ++k) step(a);
    if (field == 0) a.grains[4].body.position.y = std::numeric_limits<double>::quiet_NaN();
    else a.grains[4].body.velocity.x = std::numeric_limits<double>::infinity();
    expect_refused_naming(a, s, "grain 4");
  }
}

// The same for a wall's pose.
TEST(WorldState, NonFiniteWallPoseIsRefusedNamingTheWall) {
  std::mt19937_64 rng(oracle::test_seed());
  const DemSettings s = pile_settings(9, rng());
  World a = make_world(s, {0, -9.81, 0});
  for (int k = 0; k < 20; ++k) step(a);
  ASSERT_FALSE(a.walls.empty());
  a.walls.back().pose.translation.z = std::numeric_limits<double>::quiet_NaN();
  expect_refused_naming(a, s, "wall " + std::to_string(a.walls.size() - 1));
}

}  // namespace firn::dem

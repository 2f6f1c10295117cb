// Camera controls, playback decisions, key table, scene files and recording names: plain logic, no window.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <random>
#include <set>

#include "app/cli_util.h"
#include "core/paths.h"
#include "render/camera.h"
#include "viewer/camera_control.h"
#include "viewer/keys.h"
#include "viewer/playback.h"
#include "viewer/recorder.h"
#include "viewer/scene_files.h"
#include "viewer/viewer_test_util.h"

namespace fs = std::filesystem;

namespace firn::viewer::test {
namespace {

render::Camera start_camera() {
  render::Camera c;
  c.eye = {0.75, 0.75, 1.95};
  c.target = {0.95, 0.25, 0.45};
  return c;
}

uint32_t seed_from_test_name() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const uint32_t seed = static_cast<uint32_t>(std::hash<std::string>{}(std::string(info->name())));
  std::printf("[ seed     ] %u\n", seed);
  return seed;
}

}  // namespace

TEST(CameraControl, OrbitKeepsDistanceAndTarget) {
  std::mt19937 rng(seed_from_test_name());
  std::uniform_real_distribution<double> px(-400.0, 400.0);
  render::Camera c = start_camera();
  const double distance = glm::length(c.eye - c.target);
  for (int i = 0; i < 37; ++i) {
    c = orbit(c, px(rng), px(rng));
    EXPECT_NEAR(glm::length(c.eye - c.target), distance, 1e-12 * 10);
    EXPECT_EQ(c.target, start_camera().target);
    const double cos_polar = (c.eye.y - c.target.y) / distance;
    EXPECT_LT(std::abs(cos_polar), std::cos(0.0099)) << "passed a pole";
    EXPECT_NO_THROW(render::view_matrix(c));
  }
}

TEST(CameraControl, OrbitRightTurnsAboutTheVertical) {
  const render::Camera c = start_camera();
  const render::Camera turned = orbit(c, 100.0, 0.0, 0.001);  // 0.1 rad
  EXPECT_NEAR(turned.eye.y, c.eye.y, 1e-12);
  const glm::dvec2 a(c.eye.x - c.target.x, c.eye.z - c.target.z), b(turned.eye.x - c.target.x, turned.eye.z - c.target.z);
  EXPECT_NEAR(std::acos(glm::dot(a, b) / (glm::length(a) * glm::length(b))), 0.1, 1e-9);
}

TEST(CameraControl, PanMovesTheTargetPointWithTheMouse) {
  const render::Camera c = start_camera();
  const int w = 800, h = 600;
  const glm::dvec3 before = render::project_to_pixels(c, w, h, c.target);
  const render::Camera moved = pan(c, 37.0, -21.0, h);
  EXPECT_NEAR(glm::length(moved.eye - moved.target), glm::length(c.eye - c.target), 1e-12);
  // The old target, seen by the moved camera, sits where the mouse went.
  const glm::dvec3 after = render::project_to_pixels(moved, w, h, c.target);
  EXPECT_NEAR(after.x - before.x, 37.0, 1e-6);
  EXPECT_NEAR(after.y - before.y, -21.0, 1e-6);
}

TEST(CameraControl, ZoomScalesTheDistance) {
  const render::Camera c = start_camera();
  const double d = glm::length(c.eye - c.target);
  EXPECT_NEAR(glm::length(zoom(c, 1.0).eye - c.target), 0.9 * d, 1e-12);
  EXPECT_NEAR(glm::length(zoom(c, -2.0).eye - c.target), d / 0.81, 1e-12);
  EXPECT_NEAR(glm::length(zoom(c, 1e4).eye - c.target), 1e-3, 1e-15) << "closest: 1 mm";
  EXPECT_NEAR(zoom(c, 3.0).near, 0.01 * 0.729 * d, 1e-12);
}

TEST(CameraControl, FrameAllSeesEveryCorner) {
  const glm::dvec3 lo(0.0), hi(1.8, 0.9, 0.9);
  const render::Camera c = frame_all(orbit(start_camera(), 250.0, 40.0), lo, hi, 16.0 / 9.0);
  for (int k = 0; k < 8; ++k) {
    const glm::dvec3 corner(k & 1 ? hi.x : lo.x, k & 2 ? hi.y : lo.y, k & 4 ? hi.z : lo.z);
    const glm::dvec3 p = render::project_to_pixels(c, 1600, 900, corner);
    EXPECT_GE(p.x, 0.0);
    EXPECT_LE(p.x, 1600.0);
    EXPECT_GE(p.y, 0.0);
    EXPECT_LE(p.y, 900.0);
    EXPECT_LT(std::abs(p.z), 1.0) << "corner " << k << " clipped";
  }
}

TEST(Playback, BudgetFollowsTheState) {
  PlaybackState p;
  EXPECT_EQ(substep_budget(p, true, true, 16), 0) << "paused";
  p.step_requested = true;
  EXPECT_EQ(substep_budget(p, true, false, 16), 16) << "a step ignores pacing";
  p = PlaybackState{};
  p.playing = true;
  EXPECT_EQ(substep_budget(p, true, true, 16), 16);
  EXPECT_EQ(substep_budget(p, true, false, 16), 0) << "next frame not due yet";
  EXPECT_EQ(substep_budget(p, false, false, 16), 16) << "a frame being sliced is finished regardless of pacing";
  p.capture_pending = true;
  EXPECT_EQ(substep_budget(p, true, true, 16), 0) << "a recorded frame must be written first";
  p = PlaybackState{};
  p.playing = p.failed = true;
  EXPECT_EQ(substep_budget(p, true, true, 16), 0);
}

TEST(Playback, PacerPlaysAtFpsWithoutCatchUpBursts) {
  FramePacer pacer(0.1);
  EXPECT_TRUE(pacer.due(0.0));
  pacer.started(0.0);
  EXPECT_FALSE(pacer.due(0.05));
  EXPECT_TRUE(pacer.due(0.1));
  pacer.started(0.1);
  pacer.started(0.75);  // a slow frame: the schedule restarts from now
  EXPECT_FALSE(pacer.due(0.8));
  EXPECT_TRUE(pacer.due(0.85));
  pacer.restart();
  EXPECT_TRUE(pacer.due(0.0));
}

TEST(Playback, RealTimeFactor) {
  RealTimeMeter m(1.0);
  EXPECT_EQ(m.factor(), 0.0);
  for (int i = 0; i <= 40; ++i) m.sample(0.05 * i, 0.0125 * i);  // a quarter of real time
  EXPECT_NEAR(m.factor(), 0.25, 1e-12);
  m.clear();
  EXPECT_EQ(m.factor(), 0.0);
}

TEST(Keys, EveryRequiredKeyIsBoundOnce) {
  std::set<int> keys;
  std::set<Action> actions;
  for (const KeyBinding& k : key_bindings()) {
    EXPECT_TRUE(keys.insert(k.key).second) << k.name << " bound twice";
    actions.insert(k.action);
    EXPECT_GT(std::string(k.description).size(), 3u);
  }
  for (Action a : {Action::kPlayPause, Action::kStep, Action::kReset, Action::kScreenshot, Action::kRecord,
                   Action::kHelp, Action::kFrameAll, Action::kWaterMode, Action::kQuit})
    EXPECT_TRUE(actions.count(a)) << static_cast<int>(a);
  EXPECT_EQ(mouse_bindings().size(), 4u);
}

TEST(SceneFiles, ListsTheBundledScenesSorted) {
  const auto files = list_scene_files(firn::asset_dir() / "scenes");
  ASSERT_GE(files.size(), 3u);
  EXPECT_TRUE(std::is_sorted(files.begin(), files.end(),
                             [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); }));
  EXPECT_NE(std::find(files.begin(), files.end(), firn::asset_dir() / "scenes" / "snowball-wall.json"),
            files.end());
  EXPECT_TRUE(list_scene_files("/nonexistent-firn-folder").empty());
}

TEST(SceneFiles, WatcherSeesEachChangeOnceAndInvalidFilesReport) {
  const fs::path dir = firn::test::fresh_dir("viewer-watch");
  const fs::path file = dir / "s.json";
  fs::copy_file(tiny_scene_path(), file);
  FileWatcher w(file);
  EXPECT_FALSE(w.changed());
  EXPECT_TRUE(try_load_scene(file).scene.has_value());
  std::ofstream(file, std::ios::app) << "\n{ broken";
  EXPECT_TRUE(w.changed());
  EXPECT_FALSE(w.changed());
  const LoadOutcome bad = try_load_scene(file);
  EXPECT_FALSE(bad.scene.has_value());
  EXPECT_NE(bad.error.find(file.string()), std::string::npos) << bad.error;
  fs::remove(file);
  EXPECT_FALSE(w.changed()) << "a missing file (mid-save) is not a change";
  fs::copy_file(tiny_scene_path(), file);
  fs::last_write_time(file, fs::file_time_type::clock::now() + std::chrono::seconds(5));
  EXPECT_TRUE(w.changed());
  EXPECT_TRUE(try_load_scene(file).scene.has_value());
}

TEST(Recorder, FreshFoldersAndFrameNames) {
  const fs::path dir = firn::test::fresh_dir("viewer-recorder");
  EXPECT_EQ(next_free_path(dir, "x-rec"), dir / "x-rec-001");
  fs::create_directories(dir / "x-rec-001");
  EXPECT_EQ(next_free_path(dir, "x-rec"), dir / "x-rec-002");
  EXPECT_EQ(next_free_path(dir, "x-shot", ".png"), dir / "x-shot-001.png");
  Recorder r;
  EXPECT_THROW(r.start(dir / "r", 0, 10, false), std::runtime_error);
  r.start(dir / "r", 2, 1, false);
  const std::vector<uint8_t> px{255, 0, 0, 255, 0, 255, 0, 255};
  r.write(px);
  r.write(px);
  EXPECT_EQ(r.frames(), 2);
  EXPECT_TRUE(fs::exists(dir / "r" / "frame_00001.png"));
  EXPECT_THROW(r.write(std::vector<uint8_t>(3)), std::runtime_error);
  r.stop();
  EXPECT_FALSE(r.active());
}

}  // namespace firn::viewer::test

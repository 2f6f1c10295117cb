// `firn run --video`: the MP4 beside the PNG sequence holds exactly the frames written, at the scene's fps and the
// image size, without the encoder's info log; --video without rendering is bad input.
#include <gtest/gtest.h>

#include "app/cli_util.h"
#include "render/video.h"

namespace firn::test {
namespace {

const std::string kTiny = std::string(FIRN_TEST_DIR) + "/data/tiny-snowball.json";

TEST(RunVideo, OneVideoFramePerOutputFrame) {
  if (!render::video_available()) GTEST_SKIP() << "built without video output (FIRN_VIDEO=OFF)";
  const auto dir = fresh_dir("run-video");
  const auto r = run_firn("run " + kTiny + " --frames 5 --width 160 --height 90 --out " + (dir / "out").string() +
                          " --video " + (dir / "run.mp4").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const render::VideoInfo v = render::read_video_info(dir / "run.mp4");
  EXPECT_EQ(v.frames, 5);
  EXPECT_EQ(v.width, 160);
  EXPECT_EQ(v.height, 90);
  EXPECT_NEAR(v.fps, 30.0, 1e-9) << "tiny-snowball.json has fps 30";
  EXPECT_TRUE(std::filesystem::exists(dir / "out" / "frame_00004.png"));
  EXPECT_EQ(r.output.find("libx264 @"), std::string::npos) << "the encoder's info log is not shown:\n" << r.output;
}

// A build without FFmpeg (CMake option FIRN_VIDEO=OFF) refuses --video as bad input before anything is written,
// and says why; the default build has video output and skips this.
TEST(RunVideo, ABuildWithoutVideoRefusesItAsBadInput) {
  if (render::video_available()) GTEST_SKIP() << "built with video output";
  const auto dir = fresh_dir("run-video-unavailable");
  const auto r = run_firn("run " + kTiny + " --frames 2 --width 64 --height 48 --out " + (dir / "out").string() +
                          " --video " + (dir / "run.mp4").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--video " + (dir / "run.mp4").string() + ": this firn was built without video output"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "out")) << "bad input writes nothing";
}

TEST(RunVideo, NeedsRenderedFrames) {
  const auto dir = fresh_dir("run-video-bad");
  const auto r = run_firn("run " + kTiny + " --frames 2 --no-render --out " + (dir / "out").string() + " --video " +
                          (dir / "run.mp4").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--video"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "out")) << "bad input writes nothing";
  EXPECT_FALSE(std::filesystem::exists(dir / "run.mp4"));
  // A video path that cannot be written fails before the run, not after it.
  const auto missing = run_firn("run " + kTiny + " --frames 2 --out " + (dir / "out").string() + " --video " +
                                (dir / "no-such-folder" / "run.mp4").string());
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("--video"), std::string::npos) << missing.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "out")) << "bad input writes nothing";
}

// Found by a robustness sweep: --video naming the scene file (or a frame) replaced it with the video. The name must
// end in .mp4 and not be a file the scene needs; a video inside the output folder that the run creates is fine.
TEST(RunVideo, NeverOverwritesTheSceneAndMayGoIntoTheNewOutputFolder) {
  if (!render::video_available()) GTEST_SKIP() << "built without video output (FIRN_VIDEO=OFF)";
  const auto dir = fresh_dir("run-video-paths");
  std::filesystem::copy_file(kTiny, dir / "scene.json");
  const std::string run = "run " + (dir / "scene.json").string() + " --frames 2 --width 64 --height 48 --out ";
  const auto onto_scene = run_firn(run + (dir / "a").string() + " --video " + (dir / "scene.json").string());
  EXPECT_EQ(onto_scene.exit_code, 2) << onto_scene.output;
  EXPECT_NE(onto_scene.output.find("not an .mp4 file name"), std::string::npos) << onto_scene.output;
  const auto onto_frame =
      run_firn(run + (dir / "b").string() + " --video " + (dir / "b" / "frame_00001.png").string());
  EXPECT_EQ(onto_frame.exit_code, 2) << onto_frame.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "b"));
  EXPECT_EQ(std::filesystem::file_size(dir / "scene.json"), std::filesystem::file_size(kTiny));
  const auto inside = run_firn(run + (dir / "c").string() + " --video " + (dir / "c" / "run.mp4").string());
  EXPECT_EQ(inside.exit_code, 0) << inside.output;
  EXPECT_TRUE(std::filesystem::exists(dir / "c" / "run.mp4"));
  // Found by a second sweep: a subfolder of the output folder (which the run does not create, and --overwrite
  // empties) and the output folder itself passed the check, and the run failed with exit 1 after its last frame.
  for (const auto& [out, video] :
       {std::pair{dir / "d", dir / "d" / "sub" / "run.mp4"}, std::pair{dir / "e", dir / "e" / "frame_00001.png" / "run.mp4"},
        std::pair{dir / "f.mp4", dir / "f.mp4"}, std::pair{dir / "g.mp4" / "out", dir / "g.mp4"}}) {
    const auto r = run_firn(run + out.string() + " --video " + video.string());
    EXPECT_EQ(r.exit_code, 2) << video << ": " << r.output;
    EXPECT_NE(r.output.find("--video"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(out)) << "bad input writes nothing";
  }
  // Found by a fifth sweep: a new output folder given by a relative name (or with a trailing slash) was not seen as
  // holding the video, and "--out h --video h/run.mp4" failed with "h is not a folder".
  for (const auto& [out, video] : {std::pair{"h", "h/run.mp4"}, std::pair{"i/", "i/run.mp4"}}) {
    const auto r = run_command("cd " + dir.string() + " && " + FIRN_BINARY + " run scene.json --frames 2 --width 64 " +
                               "--height 48 --out " + out + " --video " + video);
    EXPECT_EQ(r.exit_code, 0) << video << ": " << r.output;
    EXPECT_TRUE(std::filesystem::exists(dir / video)) << video;
  }
}

}  // namespace
}  // namespace firn::test

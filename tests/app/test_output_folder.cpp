// The output folder of `firn run`: checked before any work, never mixed with an earlier run's files, and
// stats.jsonl made of complete lines.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <optional>
#include <nlohmann/json.hpp>

#include "app/cli_util.h"
#include "app/output_folder.h"
#include "core/error.h"

namespace fs = std::filesystem;
using firn::test::fresh_dir;
using firn::test::run_firn;

namespace {

const std::string kTinyGrains = std::string(FIRN_TEST_DIR) + "/data/tiny-grains.json";
const std::string kTinyBodies = std::string(FIRN_TEST_DIR) + "/data/tiny-bodies.json";

}  // namespace

TEST(OutputFolder, NonEmptyFolderIsRefusedUnlessOverwrite) {
  const fs::path out = fresh_dir("out-non-empty");
  std::ofstream(out / "frame_00099.png") << "an earlier run's frame";
  const auto refused = run_firn("run " + kTinyGrains + " --out " + out.string() + " --frames 2 --no-render --stats");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("--out " + out.string() + ": the folder is not empty"), std::string::npos)
      << refused.output;
  EXPECT_NE(refused.output.find("--overwrite"), std::string::npos) << refused.output;
  EXPECT_TRUE(fs::exists(out / "frame_00099.png"));
  EXPECT_FALSE(fs::exists(out / "stats.jsonl"));

  const auto r = run_firn("run " + kTinyGrains + " --out " + out.string() + " --frames 2 --no-render --stats "
                          "--overwrite");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_FALSE(fs::exists(out / "frame_00099.png")) << "--overwrite kept an earlier run's file";
  std::ifstream stats(out / "stats.jsonl");
  int lines = 0;
  for (std::string line; std::getline(stats, line); ++lines)
    EXPECT_TRUE(nlohmann::json::parse(line).is_object()) << line;
  EXPECT_EQ(lines, 2);
}

TEST(OutputFolder, UncreatableFolderFailsBeforeTheSceneIsRead) {
  const fs::path dir = fresh_dir("out-uncreatable");
  std::ofstream(dir / "a-file") << "x";
  const fs::path bad_scene = dir / "bad.json";
  std::ofstream(bad_scene) << "{ not json";
  // The scene is broken too: the message names --out, so the folder was checked first.
  const auto r = run_firn("run " + bad_scene.string() + " --out " + (dir / "a-file" / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("a-file is not a folder"), std::string::npos) << r.output;
  const auto file_as_out = run_firn("run " + kTinyGrains + " --out " + (dir / "a-file").string());
  EXPECT_EQ(file_as_out.exit_code, 2) << file_as_out.output;
  EXPECT_NE(file_as_out.output.find("exists and is not a folder"), std::string::npos) << file_as_out.output;
}

TEST(OutputFolder, OverwriteNeverDeletesTheSceneFile) {
  const fs::path dir = fresh_dir("out-holds-scene");
  fs::copy_file(kTinyGrains, dir / "scene.json");
  const auto r = run_firn("run " + (dir / "scene.json").string() + " --out " + dir.string() + " --overwrite");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(fs::exists(dir / "scene.json"));
}

// Nor a file the scene names (found by a robustness sweep: a rigid body's mesh kept in the output folder was deleted
// by --overwrite, and the scene could no longer run or resume).
TEST(OutputFolder, OverwriteNeverDeletesAFileTheSceneNames) {
  const fs::path dir = fresh_dir("out-holds-mesh");
  fs::create_directories(dir / "out");
  std::ofstream(dir / "out" / "tetra.obj") << "v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\n"
                                               "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
  std::ifstream in(kTinyBodies);
  nlohmann::json j = nlohmann::json::parse(in);
  j["dem"]["bodies"][2] = {{"shape", "mesh"}, {"file", "out/tetra.obj"}, {"position", {0.2, 0.2, 0}}};
  std::ofstream(dir / "scene.json") << j.dump();
  const auto r = run_firn("run " + (dir / "scene.json").string() + " --out " + (dir / "out").string() +
                          " --overwrite --no-render --frames 2");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("tetra.obj, which the scene needs"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::exists(dir / "out" / "tetra.obj"));
}

// Found by a robustness sweep: two `firn run --resume` into one folder both ended with exit 0 and a stats.jsonl of
// interleaved, repeated frames, and a --resume beside a plain run deleted that run's temporary frame. The folder is
// locked while a run writes it; a second run is refused (exit 2) before it touches anything, --overwrite included.
TEST(OutputFolder, ASecondRunIntoAFolderInUseIsRefusedAndTouchesNothing) {
  const fs::path out = fresh_dir("out-locked");
  std::optional<firn::app::OutputFolderLock> first = firn::app::prepare_output_folder(out, {});
  std::ofstream(out / "frame_00000.png") << "the first run's frame";
  try {
    (void)firn::app::prepare_output_folder(out, {.overwrite = true});
    ADD_FAILURE() << "a second lock on a folder in use";
  } catch (const firn::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--out " + out.string() + ": in use by another firn run; allowed: "),
              std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(fs::exists(out / "frame_00000.png")) << "--overwrite emptied a folder in use";
  // Through the command line: the same refusal, exit 2.
  const auto r = run_firn("run " + kTinyGrains + " --out " + out.string() + " --frames 2 --no-render --overwrite");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("in use by another firn run"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::exists(out / "frame_00000.png"));
  first.reset();  // the first run ends: the folder is free again
  const auto after = run_firn("run " + kTinyGrains + " --out " + out.string() + " --frames 2 --no-render --overwrite");
  EXPECT_EQ(after.exit_code, 0) << after.output;
}

// Found by a robustness sweep (run as an unprivileged user): --overwrite on a folder holding a read-only subfolder
// deleted the other outputs and then failed with exit 1 and a raw file system error; --resume with a read-only
// stats.jsonl simulated and then failed the same way. Both are exit 2 before anything is touched. Root may write
// anything, so as root firn runs here as the user nobody (runuser).
TEST(OutputFolder, EntriesThisUserCannotRewriteAreRefusedUpFront) {
  const std::string as_user = ::geteuid() == 0 ? "/usr/sbin/runuser -u nobody -- " : "";
  if (!as_user.empty()) {
    // The build must be reachable for nobody (a clone under /root is not).
    const auto can = firn::test::run_command(as_user + "test -x " + std::string(FIRN_BINARY) + " -a -r " + kTinyGrains);
    if (can.exit_code != 0) GTEST_SKIP() << "the user nobody cannot run " << FIRN_BINARY << " here";
  }
  const fs::path root = fresh_dir("out-permissions");
  const auto open_up = [](const fs::path& p) { fs::permissions(p, fs::perms::all); };
  open_up(root);
  const fs::path out = root / "out";
  fs::create_directories(out / "keep");
  open_up(out);
  std::ofstream(out / "frame_00001.png") << "an earlier run's frame";
  std::ofstream(out / "keep" / "x") << "kept";
  fs::permissions(out / "keep", fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                                    fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  const std::string run = as_user + std::string(FIRN_BINARY) + " run " + kTinyGrains + " --no-render ";
  const auto overwrite = firn::test::run_command(run + "--frames 2 --overwrite --out " + out.string());
  EXPECT_EQ(overwrite.exit_code, 2) << overwrite.output;
  EXPECT_NE(overwrite.output.find("--overwrite cannot empty " + (out / "keep").string()), std::string::npos)
      << overwrite.output;
  EXPECT_TRUE(fs::exists(out / "frame_00001.png")) << "deleted before the refusal";

  const fs::path resumed = root / "resumed";
  const std::string checkpointed = run + "--stats --checkpoint-every 1 --out " + resumed.string();
  ASSERT_EQ(firn::test::run_command(checkpointed + " --frames 2").exit_code, 0);
  fs::permissions(resumed / "stats.jsonl", fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  const auto resume = firn::test::run_command(checkpointed + " --frames 3 --resume");
  EXPECT_EQ(resume.exit_code, 2) << resume.output;
  EXPECT_NE(resume.output.find("--resume cannot rewrite " + (resumed / "stats.jsonl").string()), std::string::npos)
      << resume.output;
  EXPECT_FALSE(fs::exists(resumed / "frame_00002.png"));
  fs::permissions(out / "keep", fs::perms::all);  // so that the next run's fresh_dir can remove it
}

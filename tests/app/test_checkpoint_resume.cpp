// `firn run --checkpoint-every N` / `--resume` end to end: runs killed with SIGKILL at random moments and resumed
// until they finish leave exactly the files of an uninterrupted run (PNG frames, PLY files, stats.jsonl, grain CSV and
// JSON), byte for byte, for snow, water, grains and snow with water; outputs past the checkpoint are removed; bad
// combinations of options are exit 2 naming the option.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <random>
#include <signal.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "app/checkpoint.h"
#include "app/cli_util.h"
#include "render/video.h"
#include "support/test_seed.h"

namespace fs = std::filesystem;
using firn::test::fresh_dir;
using firn::test::run_firn;

namespace {

std::string scene(const std::string& name) { return std::string(FIRN_TEST_DIR) + "/data/" + name + ".json"; }

/// Starts FIRN_BINARY with `args` (split at spaces), its output appended to `log`.
pid_t launch(const std::string& args, const fs::path& log) {
  std::vector<std::string> words{FIRN_BINARY};
  for (size_t i = 0; i < args.size();) {
    const size_t j = std::min(args.find(' ', i), args.size());
    if (j > i) words.push_back(args.substr(i, j - i));
    i = j + 1;
  }
  const pid_t pid = fork();
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}

/// Runs firn with `args`; kills it with SIGKILL after `seconds` unless it ended before. Returns true if killed.
bool run_and_kill(const std::string& args, double seconds, const fs::path& log) {
  const pid_t pid = launch(args, log);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (waitpid(pid, &status, WNOHANG) == pid) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  return WIFSIGNALED(status);
}

/// Every file under `dir` except the checkpoint folder, by relative path, with its bytes.
std::map<std::string, std::string> output_files(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string rel = fs::relative(e.path(), dir).string();
    if (!e.is_regular_file() || rel.rfind("checkpoint", 0) == 0) continue;
    std::ifstream in(e.path(), std::ios::binary);
    files[rel].assign(std::istreambuf_iterator<char>(in), {});
  }
  return files;
}

/// Expects the same file names and bytes in both folders.
void expect_same_outputs(const fs::path& reference, const fs::path& resumed) {
  const auto want = output_files(reference), got = output_files(resumed);
  for (const auto& [name, bytes] : want) {
    const auto it = got.find(name);
    if (it == got.end()) ADD_FAILURE() << name << " is missing after the resumed runs";
    else EXPECT_TRUE(it->second == bytes) << name << " differs from the uninterrupted run's";
  }
  for (const auto& [name, bytes] : got)
    EXPECT_TRUE(want.count(name)) << name << " was left by the resumed runs; the uninterrupted run has no such file";
  EXPECT_GT(want.size(), 3u);
}

/// The uninterrupted run of `scene_name` with `outputs`, then the same run with --checkpoint-every `every` killed at
/// random moments (seeded by the test's name) until `kills` runs were killed, each time resumed, and finally resumed
/// to the end.
void kill_and_resume(const std::string& scene_name, const std::string& outputs, int every, int kills) {
  const fs::path root = fresh_dir(firn::test::test_full_name());
  std::mt19937_64 rng(firn::test::test_seed());
  const std::string base = "run " + scene(scene_name) + " " + outputs + " --out ";
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = run_firn(base + (root / "reference").string());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(r.exit_code, 0) << r.output;

  const fs::path out = root / "killed", log = root / "killed.log";
  const std::string resumed = base + out.string() + " --checkpoint-every " + std::to_string(every) + " --resume";
  // Kills come within 70 % of an uninterrupted run's time (a resumed run has less left to do). A run that finishes
  // before its kill (the machine got faster) leaves nothing to resume: then the folder is cleared and later kills
  // come sooner.
  double within = 0.7 * seconds;
  int killed = 0, finished = 0;
  std::string moments;
  while (killed < kills && finished < 4) {
    const double delay = std::uniform_real_distribution<double>(0.0, within)(rng);
    char moment[32];
    std::snprintf(moment, sizeof moment, " %.3f", delay);
    moments += moment;
    if (run_and_kill(resumed, delay, log)) {
      ++killed;
    } else {
      ++finished;
      fs::remove_all(out);
      within *= 0.5;
      moments += " (finished first)";
    }
  }
  const auto last = run_firn(resumed);
  std::printf("[ resume   ] %s: uninterrupted %.2f s; %d runs killed, at%s s\n", scene_name.c_str(), seconds, killed,
              moments.c_str());
  ASSERT_EQ(last.exit_code, 0) << last.output;
  ASSERT_EQ(killed, kills) << "runs kept finishing before their kill";
  expect_same_outputs(root / "reference", out);
}

const std::string kOutputs = "--stats --export ply --width 96 --height 72";

}  // namespace

TEST(FirnResume, KilledSnowRunsResumeToTheUninterruptedOutputs) { kill_and_resume("tiny-snowball", kOutputs, 1, 4); }

TEST(FirnResume, KilledWaterRunsResumeToTheUninterruptedOutputs) { kill_and_resume("tiny-water", kOutputs, 2, 4); }

TEST(FirnResume, KilledGrainRunsResumeToTheUninterruptedOutputs) { kill_and_resume("tiny-grains", kOutputs, 1, 4); }

// Hand-placed bodies with hard contact: the impulses that warm-start the cone solver are part of the state.
TEST(FirnResume, KilledHardContactRunsResumeToTheUninterruptedOutputs) { kill_and_resume("tiny-bodies", kOutputs, 1, 4); }

TEST(FirnResume, KilledSnowAndWaterRunsResumeToTheUninterruptedOutputs) {
  kill_and_resume("tiny-snow-and-water", kOutputs, 1, 4);
}

// A checkpoint at frame 2 with the outputs of frame 3 beside it (what a run killed after writing frame 3 leaves):
// --resume removes them and cuts stats.jsonl back, so a resumed run of 3 frames equals an uninterrupted one.
// A checkpoint holds the simulation's state and nothing of the machine's: two runs of one scene write the same
// bytes (grain checkpoints used to keep the wall-clock time of the last frame's steps).
TEST(FirnResume, TwoRunsWriteByteIdenticalCheckpoints) {
  const fs::path root = fresh_dir(firn::test::test_full_name());
  for (const char* name : {"tiny-snowball", "tiny-water", "tiny-grains", "tiny-bodies"}) {
    std::string bytes[2];
    for (int k = 0; k < 2; ++k) {
      const fs::path out = root / (std::string(name) + "-" + std::to_string(k));
      const auto r = run_firn("run " + scene(name) + " --no-render --checkpoint-every 1 --out " + out.string());
      ASSERT_EQ(r.exit_code, 0) << r.output;
      std::ifstream in(out / "checkpoint" / "state.bin", std::ios::binary);
      bytes[k].assign(std::istreambuf_iterator<char>(in), {});
    }
    EXPECT_FALSE(bytes[0].empty()) << name;
    EXPECT_TRUE(bytes[0] == bytes[1]) << name << ": the two runs' checkpoints differ";
  }
}

TEST(FirnResume, OutputsPastTheCheckpointAreRemoved) {
  const fs::path root = fresh_dir("resume-rewind");
  const std::string base = "run " + scene("tiny-snowball") + " " + kOutputs;
  ASSERT_EQ(run_firn(base + " --frames 3 --out " + (root / "reference").string()).exit_code, 0);
  const fs::path out = root / "out";
  ASSERT_EQ(run_firn(base + " --frames 4 --checkpoint-every 2 --out " + out.string()).exit_code, 0);
  ASSERT_TRUE(fs::exists(out / "frame_00003.png"));
  std::ofstream(out / "frame_00007.png.tmp") << "an interrupted write";
  // Every numbered output past the checkpoint goes, also the surface meshes' and the grains' (water_mesh_ was not
  // matched before, and grains_ PLYs are new).
  std::ofstream(out / "water_mesh_00003.ply") << "a later frame's mesh";
  std::ofstream(out / "grains_00003.ply") << "a later frame's grains";
  const auto r = run_firn(base + " --frames 3 --resume --out " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("continuing after frame 2"), std::string::npos) << r.output;
  expect_same_outputs(root / "reference", out);
}

// --resume into a folder without a checkpoint (found by a robustness sweep): it started from frame 0 without the
// checkpoints --checkpoint-every asked for, so a second kill lost everything; and into another scene's finished run
// it deleted that run's frames. Now a run marks its folder with its scene (checkpoint/scene) before any output:
// the same scene starts again and writes its checkpoints, another scene is refused and the folder left alone.
TEST(FirnResume, WithoutACheckpointOnlyTheSameScenesRunStartsAgainWithItsCheckpoints) {
  const fs::path root = fresh_dir("resume-no-checkpoint");
  const fs::path out = root / "out";
  const std::string water = "run " + scene("tiny-water") + " --no-render --stats --export ply --frames 3 --out ";
  ASSERT_EQ(run_firn(water + out.string()).exit_code, 0);
  ASSERT_FALSE(fs::exists(out / "checkpoint" / "state.bin"));
  const auto foreign = run_firn("run " + scene("tiny-snowball") + " --no-render --frames 2 --resume --out " +
                                out.string());
  EXPECT_EQ(foreign.exit_code, 2) << foreign.output;
  EXPECT_NE(foreign.output.find("holds files but neither a checkpoint"), std::string::npos) << foreign.output;
  for (int k = 0; k < 3; ++k) EXPECT_TRUE(fs::exists(out / ("water_0000" + std::to_string(k) + ".ply")));
  const auto again = run_firn(water + out.string() + " --resume --checkpoint-every 1");
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("starting from frame 0"), std::string::npos) << again.output;
  EXPECT_TRUE(fs::exists(out / "checkpoint" / "state.bin"));
  std::ifstream stats(out / "stats.jsonl");
  int lines = 0;
  for (std::string line; std::getline(stats, line);) ++lines;
  EXPECT_EQ(lines, 3);  // the earlier start's lines are gone
  // An empty folder needs no mark.
  const auto fresh = run_firn("run " + scene("tiny-snowball") + " --no-render --frames 2 --resume --out " +
                              (root / "empty").string());
  EXPECT_EQ(fresh.exit_code, 0) << fresh.output;
  // Nor one that a run left while writing its mark (checkpoint/ and checkpoint/scene.tmp, before the rename):
  // killed there, KilledHardContactRuns... failed on an H200, where the kill came within 9 ms.
  for (const bool tmp : {false, true}) {
    const fs::path partial = root / (tmp ? "partial-mark" : "mark-folder");
    fs::create_directories(partial / "checkpoint");
    if (tmp) std::ofstream(partial / "checkpoint" / "scene.tmp") << "0123";
    const auto resumed = run_firn("run " + scene("tiny-snowball") + " --no-render --frames 2 --resume --out " +
                                  partial.string());
    EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
    EXPECT_NE(resumed.output.find("starting from frame 0"), std::string::npos) << resumed.output;
  }
}

TEST(FirnResume, BadCombinationsGiveExit2NamingTheOption) {
  const fs::path root = fresh_dir("resume-bad");
  const fs::path out = root / "out";
  const std::string snow = "run " + scene("tiny-snowball") + " --no-render --stats --out " + out.string();
  ASSERT_EQ(run_firn(snow + " --checkpoint-every 2").exit_code, 0);
  const fs::path state = out / "checkpoint" / "state.bin";
  ASSERT_TRUE(fs::exists(state));
  struct Case {
    std::string args, expect;
  };
  const std::vector<Case> cases = {
      {snow + " --checkpoint-every 0", "--checkpoint-every"},
      // 4 frames: 0 .. 3, no checkpoint would be written (--overwrite passes the folder check; nothing is emptied
      // before the options are checked)
      {snow + " --overwrite --checkpoint-every 4", "--checkpoint-every 4"},
      {snow + " --overwrite --resume", "one of --overwrite and --resume"},
      {snow + " --resume --frames 2", "--frames 2"},
      {snow + " --resume --export ply", "--export ply"},
      {"run " + scene("tiny-snowball") + " --stats --width 64 --out " + out.string() + " --resume", "--no-render"},
      {"run " + scene("tiny-water") + " --no-render --stats --out " + out.string() + " --resume", "another scene"},
  };
  for (const Case& c : cases) {
    const auto r = run_firn(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.expect), std::string::npos) << c.args << "\n" << r.output;
  }
  // A damaged checkpoint (one byte changed) is refused the same way.
  std::fstream f(state, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(static_cast<std::streamoff>(fs::file_size(state) / 2));
  f.put('\x5a');
  f.close();
  const auto r = run_firn(snow + " --resume");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("state.bin"), std::string::npos) << r.output;
  // --video encodes every frame on disk at the end: a frame up to the checkpoint deleted from the folder is refused
  // before the run (it failed with exit 1 after all the work). Not in a build without video output (FIRN_VIDEO=OFF).
  if (!firn::render::video_available()) return;
  const fs::path rendered = root / "rendered";
  const std::string video = "run " + scene("tiny-snowball") + " --width 64 --height 48 --out " + rendered.string() +
                            " --video " + (rendered / "run.mp4").string();
  ASSERT_EQ(run_firn(video + " --checkpoint-every 2").exit_code, 0);
  fs::remove(rendered / "frame_00001.png");
  const auto missing = run_firn(video + " --resume");
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("frame_00001.png, a frame up to the checkpoint, is missing"), std::string::npos)
      << missing.output;
}

namespace {

std::string file_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// The body length of section `tag` in a checkpoint's bytes (the tag, then a uint64 length; -1 if absent).
long long section_length(const std::string& checkpoint, const std::string& tag) {
  const size_t at = checkpoint.find(tag);
  if (at == std::string::npos || at + 12 > checkpoint.size()) return -1;
  std::uint64_t n = 0;
  std::memcpy(&n, checkpoint.data() + at + 4, sizeof n);
  return static_cast<long long>(n);
}

}  // namespace

// The grain recorder's rows (one per frame, the history behind grains_summary.json) go to checkpoint/grain_rows.bin,
// appended at each checkpoint; the checkpoint holds only how much of that file it vouches for. Before, every
// checkpoint rewrote all rows, so a run checkpointing every frame slowed with the square of its frames (4,000 frames
// of tiny-grains at 10,000 fps: 48.5 s against 2.4 s without checkpoints). A row file that is missing, shorter than
// the checkpoint says or damaged is refused (exit 2, naming it) with the folder left alone; rows past the
// checkpoint (a run killed after appending them) are cut off, and the resumed run ends as an uninterrupted one.
TEST(FirnResume, GrainRowsAreAppendedAndCheckedNotRewritten) {
  const fs::path root = fresh_dir(firn::test::test_full_name());
  const std::string base = "run " + scene("tiny-grains") + " --no-render --stats ";
  ASSERT_EQ(run_firn(base + "--frames 6 --out " + (root / "reference").string()).exit_code, 0);
  std::uintmax_t rows_bytes[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    const fs::path out = root / ("rows" + std::to_string(k));
    const auto r = run_firn(base + "--checkpoint-every 1 --frames " + std::to_string(3 + 3 * k) + " --out " +
                            out.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    rows_bytes[k] = fs::file_size(out / "checkpoint" / "grain_rows.bin");
    // version (4 bytes), rows, bytes and hash (8 each): no rows inside the checkpoint, however many frames.
    EXPECT_EQ(section_length(file_bytes(out / "checkpoint" / "state.bin"), "GREC"), 28);
  }
  EXPECT_GT(rows_bytes[0], 0u);
  EXPECT_EQ(rows_bytes[1], 2 * rows_bytes[0]);  // 6 rows against 3, each of one size

  const fs::path out = root / "out", rows = out / "checkpoint" / "grain_rows.bin";
  ASSERT_EQ(run_firn(base + "--checkpoint-every 3 --frames 4 --out " + out.string()).exit_code, 0);
  const std::string good = file_bytes(rows), csv = file_bytes(out / "grains.csv");
  struct Case {
    std::string name, expect;
    std::string bytes;  // empty: the file is removed
  };
  std::string damaged = good;
  damaged[damaged.size() / 2] ^= 0x5a;
  const std::vector<Case> cases = {{"missing", "is missing", ""},
                                   {"short", "fewer than the", good.substr(0, good.size() - 1)},
                                   {"damaged", "(the file is damaged)", damaged}};
  for (const Case& c : cases) {
    fs::remove(rows);
    if (!c.bytes.empty()) std::ofstream(rows, std::ios::binary) << c.bytes;
    const auto r = run_firn(base + "--frames 6 --resume --out " + out.string());
    EXPECT_EQ(r.exit_code, 2) << c.name << "\n" << r.output;
    EXPECT_NE(r.output.find("grain_rows.bin"), std::string::npos) << c.name << "\n" << r.output;
    EXPECT_NE(r.output.find(c.expect), std::string::npos) << c.name << "\n" << r.output;
    EXPECT_TRUE(file_bytes(out / "grains.csv") == csv) << c.name << ": the folder was changed";
  }
  std::ofstream(rows, std::ios::binary) << good << "rows of frames after the checkpoint";
  const auto r = run_firn(base + "--frames 6 --resume --out " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* name : {"grains.csv", "grains_summary.json", "stats.jsonl"})
    EXPECT_TRUE(file_bytes(out / name) == file_bytes(root / "reference" / name)) << name;
  EXPECT_TRUE(file_bytes(rows) == good) << "the rows past the checkpoint were not cut off";  // no checkpoint since
}

// The scene hash covers the files a scene names (meshes, environment files), so a changed mesh is another scene.
TEST(FirnResume, SceneHashCoversTheFilesTheSceneNames) {
  const fs::path dir = fresh_dir("resume-scene-hash");
  std::ofstream(dir / "scene.json") << R"({ "name": "s", "mpm": { "bodies": [ { "file": "body.ply" } ] } })";
  std::ofstream(dir / "body.ply") << "ply v1";
  const auto with_v1 = firn::app::scene_hash(dir / "scene.json");
  EXPECT_EQ(firn::app::scene_hash(dir / "scene.json"), with_v1);
  std::ofstream(dir / "body.ply") << "ply v2";
  const auto with_v2 = firn::app::scene_hash(dir / "scene.json");
  EXPECT_NE(with_v2, with_v1);
  fs::remove(dir / "body.ply");
  EXPECT_NE(firn::app::scene_hash(dir / "scene.json"), with_v2);
}

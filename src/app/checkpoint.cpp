#include "app/checkpoint.h"

#include <array>
#include <cerrno>
#include <fcntl.h>
#include <stdexcept>
#include <system_error>
#include <unistd.h>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <regex>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "app/grain_state.h"
#include "app/output_names.h"
#include "app/simulation_state.h"
#include "core/binary_io.h"
#include "core/error.h"
#include "core/log.h"
#include "scene/read_json.h"

namespace firn::app {
namespace {

constexpr char kMagic[8] = {'F', 'I', 'R', 'N', 'C', 'K', 'P', 'T'};
constexpr std::uint32_t kFormatVersion = 1;
constexpr std::uint32_t kRunVersion = 3;  // 2: warnings are the solvers' own state; 3: --export mesh
constexpr std::size_t kHeaderBytes = sizeof kMagic + 4 + 3 * 8;

namespace fs = std::filesystem;

/// The output options that decide which files a frame writes and what they hold, with the option that sets each.
struct OutputOption {
  const char* flag;
  std::int32_t value;
};

/// Image size and water look matter only when frames are rendered.
std::array<OutputOption, 7> output_options(const RunOptions& o) {
  return {{{"--no-render", o.render ? 0 : 1},
           {"--width", o.render ? o.width : 0},
           {"--height", o.render ? o.height : 0},
           {"--water", o.render ? static_cast<std::int32_t>(o.water) : 0},
           {"--export ply", o.export_ply ? 1 : 0},
           {"--export mesh", o.export_mesh ? 1 : 0},
           {"--stats", o.stats ? 1 : 0}}};
}

void put_run(BinaryWriter& out, const RunOptions& o, const RunProgress& p) {
  out.put(kRunVersion, std::int32_t{p.frame}, p.stats_bytes, std::int32_t{p.checkpoint_every});
  for (const OutputOption& option : output_options(o)) out.put(option.value);
}

std::string option_text(const OutputOption& option) {
  const std::string flag = option.flag;
  if (flag == "--width" || flag == "--height") return flag + " " + std::to_string(option.value);
  if (flag == "--water") return flag + " " + water_mode_name(static_cast<WaterMode>(option.value));
  return option.value ? flag : "no " + flag;
}

/// Reads the "RUN " section and checks that this run writes the same files as the one that wrote the checkpoint.
RunProgress get_run(BinaryReader& in, const RunOptions& o, const fs::path& file, std::uint64_t scene_hash) {
  in.expect_version(kRunVersion, "run state");
  RunProgress p{.scene_hash = scene_hash};
  in.read(p.frame, p.stats_bytes, p.checkpoint_every);
  if (p.frame < 0 || p.checkpoint_every < 0) in.fail("a negative frame or interval");
  for (const OutputOption& now : output_options(o)) {
    const OutputOption then{now.flag, in.get<std::int32_t>()};
    if (then.value != now.value)
      throw InputError("--resume: " + file.string() + " was written by a run with " + option_text(then) +
                       ", this run has " + option_text(now) + "; allowed: the output options of the run that wrote " +
                       "the checkpoint (its frames would not match), or a run without --resume into a new folder");
  }
  in.expect_end();
  return p;
}

/// The payload of the checkpoint in `file`, after checking magic, version, scene and payload hash.
std::vector<std::byte> read_payload(const fs::path& file, const fs::path& scene, std::uint64_t scene_hash) {
  const std::vector<std::byte> bytes = read_file_bytes(file);
  BinaryReader header(bytes, file.string());
  std::array<char, sizeof kMagic> magic{};
  header.read(magic);
  if (std::memcmp(magic.data(), kMagic, sizeof kMagic) != 0) header.fail("not a firn checkpoint");
  header.expect_version(kFormatVersion, "checkpoint format");
  std::uint64_t hash = 0, length = 0, payload_hash = 0;
  header.read(hash, length, payload_hash);
  if (hash != scene_hash)
    throw InputError("--resume: " + file.string() + " was written for another scene than " + scene.string() +
                     " (the bytes of the scene file or of a file it names differ); allowed: --resume with the scene " +
                     "that wrote it, or a run without --resume into a new folder");
  if (length != header.remaining()) header.fail("the payload length does not match the file size");
  std::vector<std::byte> payload(bytes.begin() + kHeaderBytes, bytes.end());
  if (fnv1a64(payload) != payload_hash) header.fail("the payload hash does not match (the file is damaged)");
  return payload;
}

/// Frame-numbered outputs (and the temporary files of interrupted writes) of frames after `last`.
bool after_checkpoint(const std::string& name, int last) {
  static const std::regex numbered(R"((frame|particles|water|water_mesh|grains)_([0-9]{5,9})\.(png|ply)(\.tmp)?)");
  std::smatch m;
  if (std::regex_match(name, m, numbered)) return std::stoll(m[2].str()) > last || m[4].matched;
  return name == "grains.csv.tmp" || name == "grains_summary.json.tmp" || name == "state.bin.tmp" ||
         name == "scene.tmp";
}

/// Removes what a killed run wrote after its checkpoint at frame `last` (-1: none) and cuts stats.jsonl back; checks
/// stats.jsonl first, so that a folder that does not fit the checkpoint is left untouched.
void rewind_outputs(const RunOptions& o, const RunProgress& p) {
  const fs::path stats = o.out / "stats.jsonl";
  const std::uint64_t stats_size = o.stats && fs::exists(stats) ? fs::file_size(stats) : 0;
  if (stats_size < p.stats_bytes)
    throw InputError("--resume: " + stats.string() + " holds " + std::to_string(stats_size) + " bytes, fewer than the " +
                     std::to_string(p.stats_bytes) + " the checkpoint recorded; allowed: the folder as the " +
                     "checkpointed run left it");
  for (const fs::path& dir : {o.out, o.out / "checkpoint"}) {
    if (!fs::is_directory(dir)) continue;
    for (const fs::directory_entry& e : fs::directory_iterator(dir))
      if (e.is_regular_file() && after_checkpoint(e.path().filename().string(), p.frame)) fs::remove(e.path());
  }
  if (o.stats && fs::exists(stats)) fs::resize_file(stats, p.stats_bytes);
}

/// Flushes every written file of the file system that holds `folder` (syncfs), so that after a power loss the
/// outputs of the frames before a checkpoint are on disk whenever the checkpoint is.
void sync_folder_filesystem(const fs::path& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0 || ::syncfs(fd) != 0) {
    const std::string why = std::generic_category().message(errno);
    if (fd >= 0) ::close(fd);
    throw std::runtime_error(folder.string() + ": syncfs failed: " + why);
  }
  ::close(fd);
}

/// The file that names the scene a run in this folder was started from (the scene hash as 16 hex digits), written
/// when a run starts, before any output: lets --resume tell a run's own outputs from another scene's when there is
/// no checkpoint yet.
fs::path run_scene_file(const fs::path& out) { return out / "checkpoint" / "scene"; }

std::string hex(std::uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

void write_run_scene(const RunOptions& o, std::uint64_t hash) {
  fs::create_directories(o.out / "checkpoint");
  // Durably, through a temporary file and a rename like the checkpoint: a kill while the mark was written in place
  // left it empty, and --resume then refused the folder (robustness sweep, 2026-11-27).
  const std::string text = hex(hash) + "\n";
  write_file_durably(run_scene_file(o.out), std::as_bytes(std::span(text.data(), text.size())));
}

}  // namespace

std::uint64_t scene_hash(const fs::path& scene) {
  const std::vector<std::byte> bytes = read_file_bytes(scene);
  std::uint64_t hash = fnv1a64(bytes);
  // The scene was loaded before (load_scene checked it), so it parses; a failure here would be a changed file.
  const nlohmann::json root = nlohmann::json::parse(reinterpret_cast<const char*>(bytes.data()),
                                                    reinterpret_cast<const char*>(bytes.data() + bytes.size()),
                                                    nullptr, false);
  // The files it names (meshes, environment files) are part of the scene, in the JSON's (sorted) order.
  for (const fs::path& file : scene::referenced_files(root, scene.parent_path()))
    hash = fnv1a64(read_file_bytes(file), hash);
  return hash;
}

fs::path checkpoint_file(const fs::path& out) { return out / "checkpoint" / "state.bin"; }

namespace {

/// The grain recorder's rows up to the latest checkpoint (app/grain_state.h save_recorder).
fs::path grain_rows_file(const fs::path& out) { return out / "checkpoint" / "grain_rows.bin"; }

}  // namespace

bool checkpoint_due(int frame, int every) { return every > 0 && frame > 0 && frame % every == 0; }

void write_checkpoint(const RunOptions& o, const Simulation& sim, GrainRecorder* recorder,
                      const RunProgress& progress) {
  BinaryWriter run, state, rows, payload;
  put_run(run, o, progress);
  payload.put_section("RUN ", run);
  save_simulation(sim, state);
  payload.put_section("SIM ", state);
  fs::create_directories(o.out / "checkpoint");
  if (recorder) {
    save_recorder(*recorder, grain_rows_file(o.out), rows);  // appended here, flushed by the syncfs below
    payload.put_section("GREC", rows);
  }
  BinaryWriter file;
  file.put(kMagic, kFormatVersion, progress.scene_hash, std::uint64_t{payload.bytes().size()},
           fnv1a64(payload.bytes()));
  std::vector<std::byte> bytes = file.bytes();
  bytes.insert(bytes.end(), payload.bytes().begin(), payload.bytes().end());
  sync_folder_filesystem(o.out);  // the outputs the checkpoint vouches for reach the disk before it does
  write_file_durably(checkpoint_file(o.out), bytes);
}

void check_checkpoint_options(const RunOptions& o, int frames) {
  if (o.checkpoint_every > 0 && o.checkpoint_every > frames - 1)
    throw InputError("--checkpoint-every " + std::to_string(o.checkpoint_every) + ": the run has " +
                     std::to_string(frames) + " frames (0 .. " + std::to_string(frames - 1) +
                     "), so no checkpoint would be written; allowed: " +
                     (frames < 2 ? std::string("none (raise --frames)") : "1 .. " + std::to_string(frames - 1)));
}

RunProgress resume_run(const RunOptions& o, int frames, Simulation& sim, GrainRecorder* recorder) {
  const fs::path file = checkpoint_file(o.out);
  RunProgress p{.scene_hash = scene_hash(o.scene)};
  if (!fs::exists(file)) {
    log::info("--resume: no checkpoint in " + file.parent_path().string() + "; starting from frame 0");
    rewind_outputs(o, p);
    if (!o.stats) fs::remove(o.out / "stats.jsonl");  // an earlier start's lines: this run writes none
    write_run_scene(o, p.scene_hash);
    p.checkpoint_every = o.checkpoint_every;  // a run killed before its first checkpoint is protected from now on
    return p;
  }
  if (!fs::is_regular_file(file))
    throw InputError("--resume: " + file.string() + " is not a regular file; allowed: the checkpoint a run with " +
                     "--checkpoint-every wrote");
  const std::vector<std::byte> payload = read_payload(file, o.scene, p.scene_hash);
  BinaryReader in(payload, file.string());
  BinaryReader run = in.section("RUN ");
  p = get_run(run, o, file, p.scene_hash);
  if (p.frame > frames - 1)
    throw InputError("--frames " + std::to_string(frames) + ": the checkpoint in " + file.parent_path().string() +
                     " is at frame " + std::to_string(p.frame) + ", past this run's last frame; allowed: --frames " +
                     "of at least " + std::to_string(p.frame + 1));
  // The video is encoded from every frame on disk at the end: one missing now would fail the run after all its work
  // (robustness sweep 2026-11-27).
  if (!o.video.empty())
    for (int k = 0; k <= p.frame; ++k)
      if (const fs::path png = o.out / frame_name("frame", k, ".png"); !fs::is_regular_file(png))
        throw InputError("--resume --video: " + png.string() + ", a frame up to the checkpoint, is missing; " +
                         "allowed: the folder as the checkpointed run left it, or no --video");
  BinaryReader state = in.section("SIM ");
  // Everything is read and checked before the folder changes (the row file is read whole here).
  std::optional<RecorderCheckpoint> rows;
  if (recorder) {
    BinaryReader section = in.section("GREC");
    rows = read_recorder(section, grain_rows_file(o.out));
    section.expect_end();
  }
  in.expect_end();
  restore_simulation(sim, state);
  if (sim.frame() != p.frame) in.fail("the simulation's frame differs from the run's");
  rewind_outputs(o, p);
  if (recorder) restore_recorder(*recorder, std::move(*rows), *sim.grains());
  log::info("--resume: continuing after frame " + std::to_string(p.frame) + " from " + file.string());
  if (o.checkpoint_every > 0) p.checkpoint_every = o.checkpoint_every;
  return p;
}

RunProgress start_run(const RunOptions& o) {
  std::error_code ignored;
  fs::remove(checkpoint_file(o.out), ignored);
  fs::remove(grain_rows_file(o.out), ignored);
  const RunProgress p{.checkpoint_every = o.checkpoint_every, .scene_hash = scene_hash(o.scene)};
  write_run_scene(o, p.scene_hash);
  return p;
}

namespace {

/// True when `out` holds nothing, or nothing but the start of a run's mark: write_run_scene creates checkpoint/ and
/// writes checkpoint/scene.tmp before renaming it, and a run killed in between (seen on an H200, where a run reaches
/// that point within milliseconds) left a folder that --resume then refused.
bool nothing_to_lose(const fs::path& out) {
  for (const auto& entry : fs::directory_iterator(out)) {
    if (entry.path().filename() != "checkpoint" || !entry.is_directory()) return false;
    for (const auto& inner : fs::directory_iterator(entry.path()))
      if (inner.path() != run_scene_file(out).string() + ".tmp") return false;
  }
  return true;
}

}  // namespace

void check_resumable(const RunOptions& o) {
  if (!fs::is_directory(o.out) || fs::exists(checkpoint_file(o.out))) return;
  if (nothing_to_lose(o.out)) return;
  std::string named;
  std::ifstream(run_scene_file(o.out)) >> named;
  if (named == hex(scene_hash(o.scene))) return;  // this scene's own run, killed before its first checkpoint
  throw InputError("--resume: " + o.out.string() + " holds files but neither a checkpoint (checkpoint/state.bin) " +
                   "nor the mark of a run of " + o.scene.string() + " (checkpoint/scene), so starting again would " +
                   "delete another run's outputs; allowed: a folder with this scene's checkpoint or mark, a new or " +
                   "empty folder, or --overwrite without --resume");
}

}  // namespace firn::app

// The loader fuzz target: structured mutants of the bundled scenes and the test scenes (support/scene_mutator.h)
// through load_scene, the DEM section's parser and the mesh reader, in process. A crash fails the test binary;
// any exception but InputError, a must-reject mutant accepted, or a message without the file and what is allowed
// fails the test. Bounded: a fixed number of mutants from a seed derived from the test name (FIRN_FUZZ_ITERATIONS
// overrides the count for a longer local run).
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/paths.h"
#include "scene/load.h"
#include "scene/parse_dem.h"
#include "scene/scene_test_util.h"
#include "support/scene_mutator.h"
#include "support/test_seed.h"

namespace firn::scene {
namespace {

std::vector<firn::test::Seed> seeds() {
  std::vector<firn::test::Seed> out;
  for (const char* name : {"tiny-snowball.json", "tiny-water.json", "tiny-grains.json", "small-two-snowballs.json"})
    out.push_back(firn::test::read_seed(std::filesystem::path(FIRN_TEST_DIR) / "data" / name));
  for (const auto& entry : std::filesystem::directory_iterator(asset_dir() / "scenes"))
    if (entry.path().extension() == ".json") out.push_back(firn::test::read_seed(entry.path()));
  return out;
}

/// Loads the scene as `firn run` does before its first frame: the document, the DEM section and the meshes.
void load_everything(const std::filesystem::path& file) {
  const Scene s = load_scene(file);
  if (s.dem) parse_dem_section(s);
}

TEST(FuzzLoader, MutantsAreLoadedOrRejectedNamingFileAndAllowed) {
  const char* env = std::getenv("FIRN_FUZZ_ITERATIONS");
  const long iterations = env ? std::atol(env) : 1500;
  const std::vector<firn::test::Seed> all = seeds();
  firn::test::SceneMutator mutator(firn::test::name_seed());
  const test::ScratchDir dir;
  long rejected = 0;
  for (long k = 0; k < iterations; ++k) {
    const firn::test::Seed& seed = all[static_cast<std::size_t>(k) % all.size()];
    const firn::test::Mutant m = mutator.mutate(seed);
    const auto folder = dir.path() / std::to_string(k);
    const auto file = dir.write(std::to_string(k) + "/scene.json", m.scene);
    for (const auto& [name, bytes] : m.files) dir.write(std::to_string(k) + "/" + name, bytes);
    SCOPED_TRACE("mutant " + std::to_string(k) + " of " + seed.name + ": " + m.kind);
    try {
      load_everything(file);
      EXPECT_FALSE(m.must_reject) << "accepted";
    } catch (const InputError& e) {
      ++rejected;
      const std::string message = e.what();
      EXPECT_EQ(message.rfind(folder.string(), 0), 0u) << "does not start with the file: " << message;
      const bool says_allowed = message.find("allowed: ") != std::string::npos ||
                                message.find("defined: ") != std::string::npos;
      EXPECT_TRUE(says_allowed) << message;
      EXPECT_EQ(message.find('\0'), std::string::npos) << message;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "not an InputError: " << e.what();
    }
    std::filesystem::remove_all(folder);
    if (::testing::Test::HasFailure()) break;  // the first failing mutant is the useful one
  }
  std::printf("%ld mutants, %ld rejected\n", iterations, rejected);
}

}  // namespace
}  // namespace firn::scene

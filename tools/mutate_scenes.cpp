// Writes a corpus of mutated scenes for the robustness table of docs/robustness.md: for each of N mutants of the
// given seed scenes a folder <out>/<index>/ with scene.json, its side files and a line in <out>/index.tsv
// (index, seed, must_reject, kinds). tools/run-mutation-corpus.sh runs firn on them and counts the outcomes.
// Usage: firn_mutate_scenes OUT COUNT SEED_SCENE...
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/scene_mutator.h"

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s OUT COUNT SEED_SCENE...\n", argv[0]);
    return 2;
  }
  const std::filesystem::path out = argv[1];
  const long count = std::strtol(argv[2], nullptr, 10);
  std::vector<firn::test::Seed> seeds;
  for (int i = 3; i < argc; ++i) seeds.push_back(firn::test::read_seed(argv[i]));
  std::filesystem::create_directories(out);
  std::ofstream index(out / "index.tsv");
  firn::test::SceneMutator mutator(20261123);
  for (long k = 0; k < count; ++k) {
    const firn::test::Seed& seed = seeds[static_cast<std::size_t>(k) % seeds.size()];
    const firn::test::Mutant m = mutator.mutate(seed);
    const auto dir = out / std::to_string(k);
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "scene.json", std::ios::binary) << m.scene;
    for (const auto& [name, bytes] : m.files) std::ofstream(dir / name, std::ios::binary) << bytes;
    index << k << '\t' << seed.name << '\t' << (m.must_reject ? 1 : 0) << '\t' << m.kind << '\n';
  }
  return 0;
}

#pragma once
/// `firn bench --solver world`: the whole scene as `firn run` steps it (every solver, the coupling between them),
/// with the coupling's share of the time.
#include <filesystem>
#include <string>

namespace firn::app {

/// Advances whole output frames of the scene until its solvers have taken at least `steps` steps in all (after
/// one warm-up frame) and prints: wall time per frame and compute seconds per simulated second; per coupled part
/// (each coupled solver's advance, the grains, each exchange) ms per coupling interval and share of the wall time;
/// blocking reads per interval; every GPU solver's per-pass table. With snow and grains it then runs the same
/// frames of the snow alone (the scene without "dem") and prints the snow's GPU ms per substep both ways: the
/// bodies' cost inside the grid update. Throws firn::InputError for an invalid scene.
int run_world_bench(const std::filesystem::path& scene, int steps, const std::string& egl);

}  // namespace firn::app

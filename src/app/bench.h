#pragma once
/// `firn bench`: GPU time per substep and per pass of a scene's snow solver.
#include <filesystem>
#include <string>

namespace firn::app {

/// Runs `substeps` substeps of the scene's MPM solver at its CFL time step (after a short warm-up) and prints a
/// table to stdout: ms per substep (wall and GPU), ms and share per pass from timestamp queries, particle substeps
/// per second, GPU and driver. Returns an exit code; throws firn::InputError for an invalid scene.
int run_bench(const std::filesystem::path& scene, int substeps, const std::string& egl);

}  // namespace firn::app

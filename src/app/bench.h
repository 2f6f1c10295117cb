#pragma once
/// `firn bench`: GPU time per substep and per pass of a scene's snow solver.
#include <filesystem>
#include <string>

namespace firn::app {

/// Runs `substeps` substeps of the scene's MPM solver at its CFL time step (after a short warm-up) and prints a
/// table to stdout: ms per substep (wall and GPU), ms and share per pass from timestamp queries, particle substeps
/// per second, GPU and driver. Returns an exit code; throws firn::InputError for an invalid scene.
int run_bench(const std::filesystem::path& scene, int substeps, const std::string& egl);

/// `firn bench --solver`: "mpm" times the snow solver as above; "sph" runs `substeps` steps of the scene's water
/// solver at its adaptive time step (after a short warm-up) with the sort named by `sort` ("counting", "radix", or
/// "" for the scene's) and prints ms per step (wall and GPU), ms and share per pass (the sort included), particle
/// steps per second, GPU memory and GPU/driver; "auto" picks mpm when the scene has an "mpm" section, else sph.
/// Throws firn::InputError when the scene lacks the section.
int run_bench(const std::filesystem::path& scene, int substeps, const std::string& egl, const std::string& solver,
              const std::string& sort);

}  // namespace firn::app

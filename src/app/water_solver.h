#pragma once
/// Water (SPH on the GPU, sph::Solver) behind the app::Solver interface.
#include <memory>

#include "app/gpu_solver.h"
#include "sph/solver.h"
#include "sph/surface_mesh.h"

namespace firn::app {

/// Owns an sph::Solver and reports, draws, edits and saves it through app::Solver.
class WaterSolver final : public GpuSolver<sph::Solver> {
 public:
  using GpuSolver::GpuSolver;

  /// The SPH solver itself (benchmarks, tests).
  sph::Solver& sph() { return *solver_; }
  const sph::Solver& sph() const { return *solver_; }

  const char* name() const override { return "water"; }
  /// Totals of the particles plus max_density_error (relative to rho0) and energy [J] (one read-back).
  SolverReport report() const override;
  std::vector<SolverFigure> figures() const override;
  /// The particles (radius half their spacing) as a surface or as blue spheres, per look.water; colour by speed
  /// also colours the spheres.
  void draw(render::FrameContent& frame, const FrameLook& look) const override;
  std::optional<render::Bounds> domain() const override;
  /// water_<frame>.ply
  void write_ply(const std::filesystem::path& folder, int frame) const override;
  /// water_mesh_<frame>.ply: surface_mesh().
  void write_mesh(const std::filesystem::path& folder, int frame) const override;
  /// The free surface now (sph::Solver::surface_mesh on the GPU, a lattice of half the particle spacing; the
  /// particles stay on the GPU, the mesh comes back). Beyond the GPU extraction's capacity (sph::SurfaceMeshTooLarge)
  /// the CPU reference sph::extract_surface builds the same surface from the downloaded particles, with a warning.
  sph::SurfaceMesh surface_mesh() const;
  /// Viscosity mu [Pa s], artificial viscosity alpha [1], surface tension sigma [N/m], speed of sound c [m/s]
  /// (sph::Solver::set_fluid).
  std::vector<SolverParameter> parameters() const override;
  std::string set_parameter(std::size_t index, double value) override;
  const char* state_tag() const override { return "SPH "; }
  void save(BinaryWriter& out) const override;
  void restore(BinaryReader& in) override;
};

}  // namespace firn::app

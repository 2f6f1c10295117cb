// The C++ mirrors of the shaders' std430 / std140 blocks (src/mpm/layout.h, src/sph/layout.h, core/gpu_collider.h,
// core/numerical_failure.h) against the layout the GLSL compiler gives the real programs: every shader and define
// variant the solvers and renderers build is linked through gl::Program, every storage and uniform block it declares
// is reflected (gl::program_blocks) and must have a table below, and every variable of the block must match a row:
// same name, offset, element size and inner array stride; the block's binding equals the C++ constant; an array
// block's element stride equals sizeof of the C++ element; a block that is one struct is no larger than that struct
// and the struct has no bytes past its last member beyond its alignment padding. See docs/gpu-structs.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "app/coupling_layout.h"
#include "common/bindings.h"
#include "core/paths.h"
#include "gl/program.h"
#include "gl/reflection.h"
#include "mpm/layout.h"
#include "sph/layout.h"
#include "support/gl_context.h"

namespace firn {
namespace {

/// One GLSL variable of a block and where the C++ mirror keeps it.
struct Row {
  std::string glsl;  ///< the reflected name ("particles[0].fe[0]", "MpmStep.time", "counts")
  size_t offset;     ///< offsetof in the C++ struct [B]
  size_t bytes;      ///< sizeof one element of the C++ member [B]
  size_t count;      ///< elements of a C++ array member; 0 when the member is not an array
  bool top = false;  ///< the row is the block's unsized top-level array of a basic type itself ("keys[0]")
};

/// The C++ mirror of one block.
struct Mirror {
  std::string cpp;    ///< the C++ type, for messages
  std::string block;  ///< GLSL block name
  int binding;        ///< the binding point the C++ side binds the buffer to
  bool storage;       ///< shader storage block (else uniform block)
  bool array;         ///< the block holds an unsized array of `size`-byte elements (else it is one struct)
  size_t size;        ///< sizeof the C++ struct or array element [B]
  size_t align;       ///< alignof the C++ struct or array element [B]
  std::vector<Row> rows;
};

template <class M>
Row row(std::string glsl, size_t offset) {
  using E = std::remove_extent_t<M>;
  return Row{std::move(glsl), offset, sizeof(E), std::is_array_v<M> ? std::extent_v<M> : 0};
}

/// A row for C++ member `m` of struct `T` (nested members allowed: error.flags) named `glsl` in the shader.
#define FIRN_ROW(T, m, glsl) row<std::remove_cvref_t<decltype(std::declval<T>().m)>>(glsl, offsetof(T, m))

/// A block `block { T name[]; }` of structs (`rows` relative to one element) or, with no rows, of a basic type.
template <class T>
Mirror array_of(std::string cpp, std::string block, int binding, const std::string& name, std::vector<Row> rows = {}) {
  if (rows.empty()) {
    rows.push_back(Row{name + "[0]", 0, sizeof(T), 0, true});
  } else {
    for (Row& r : rows) r.glsl = name + "[0]." + r.glsl;
  }
  return Mirror{std::move(cpp), std::move(block), binding, true, true, sizeof(T), alignof(T), std::move(rows)};
}

/// A block that is one struct `T`; `prefix` is "Block." for a block with an instance name, "" otherwise.
template <class T>
Mirror struct_block(std::string cpp, std::string block, int binding, bool storage, const std::string& prefix,
                    std::vector<Row> rows) {
  for (Row& r : rows) r.glsl = prefix + r.glsl;
  return Mirror{std::move(cpp), std::move(block), binding, storage, false, sizeof(T), alignof(T), std::move(rows)};
}

std::vector<Row> collider_rows() {
  return {FIRN_ROW(GpuCollider, point_shape, "point_shape"), FIRN_ROW(GpuCollider, normal_radius, "normal_radius"),
          FIRN_ROW(GpuCollider, velocity_friction, "velocity_friction"), FIRN_ROW(GpuCollider, boundary, "boundary")};
}

/// The error record at the start of both status blocks (shaders/common/status.glsl).
template <class S>
std::vector<Row> status_rows(std::vector<Row> reductions) {
  std::vector<Row> rows = {FIRN_ROW(S, error.flags, "error_flags"), FIRN_ROW(S, error.step, "error_step"),
                           FIRN_ROW(S, error.quantity, "error_quantity"), FIRN_ROW(S, error.index, "error_index")};
  rows.insert(rows.end(), reductions.begin(), reductions.end());
  return rows;
}

/// core/gpu_rigid_body.h, shared by both solvers (shaders/common/rigid_body.glsl).
std::vector<Row> rigid_body_rows() {
  return {FIRN_ROW(GpuRigidBody, position, "position"), FIRN_ROW(GpuRigidBody, rotation, "rotation[0]"),
          FIRN_ROW(GpuRigidBody, velocity_friction, "velocity_friction"),
          FIRN_ROW(GpuRigidBody, angular_velocity, "angular_velocity"), FIRN_ROW(GpuRigidBody, faces, "faces")};
}

std::vector<Row> rigid_state_rows() {
  return {FIRN_ROW(GpuRigidState, position, "position"), FIRN_ROW(GpuRigidState, orientation, "orientation"),
          FIRN_ROW(GpuRigidState, velocity, "velocity"),
          FIRN_ROW(GpuRigidState, angular_velocity, "angular_velocity"),
          FIRN_ROW(GpuRigidState, start_velocity, "start_velocity"),
          FIRN_ROW(GpuRigidState, start_angular_velocity, "start_angular_velocity"),
          FIRN_ROW(GpuRigidState, acceleration, "acceleration"),
          FIRN_ROW(GpuRigidState, inverse_inertia, "inverse_inertia[0]")};
}

std::vector<Mirror> mpm_mirrors() {
  using namespace mpm;
  return {
      array_of<GpuParticle>("mpm::GpuParticle", "ParticleBuffer", MPM_BIND_PARTICLES, "particles",
                            {FIRN_ROW(GpuParticle, x_m, "x_m"), FIRN_ROW(GpuParticle, v_vol, "v_vol"),
                             FIRN_ROW(GpuParticle, fe, "fe[0]"), FIRN_ROW(GpuParticle, fp, "fp[0]")}),
      array_of<GpuGridNode>("mpm::GpuGridNode", "GridBuffer", MPM_BIND_GRID, "nodes",
                            {FIRN_ROW(GpuGridNode, mass_momentum, "mass_momentum"),
                             FIRN_ROW(GpuGridNode, impulse, "impulse")}),
      array_of<GpuGridVelocity>("mpm::GpuGridVelocity", "GridVelBuffer", MPM_BIND_GRID_VEL, "velocities",
                                {FIRN_ROW(GpuGridVelocity, v_old, "v_old"), FIRN_ROW(GpuGridVelocity, v_new, "v_new")}),
      array_of<GpuVelocityGradient>("mpm::GpuVelocityGradient", "VelGradBuffer", MPM_BIND_VELGRAD,
                                    "velocity_gradients"),
      array_of<GpuCollider>("GpuCollider", "ColliderBuffer", MPM_BIND_COLLIDERS, "colliders", collider_rows()),
      array_of<GpuMaterial>("mpm::GpuMaterial", "MaterialBuffer", MPM_BIND_MATERIALS, "materials",
                            {FIRN_ROW(GpuMaterial, lame, "lame"), FIRN_ROW(GpuMaterial, plasticity, "plasticity")}),
      struct_block<GpuStatus>("mpm::GpuStatus", "StatusBuffer", MPM_BIND_STATUS, true, "StatusBuffer.",
                              status_rows<GpuStatus>({FIRN_ROW(GpuStatus, max_speed_bits, "max_speed_bits"),
                                                      FIRN_ROW(GpuStatus, max_hardening_bits, "max_hardening_bits"),
                                                      FIRN_ROW(GpuStatus, nonfinite, "nonfinite"),
                                                      FIRN_ROW(GpuStatus, inversions, "inversions"),
                                                      FIRN_ROW(GpuStatus, base_lo, "base_lo"),
                                                      FIRN_ROW(GpuStatus, base_hi, "base_hi")})),
      struct_block<GpuStep>(
          "mpm::GpuStep", "MpmStep", MPM_BIND_STEP, true, "MpmStep.",
          {FIRN_ROW(GpuStep, time, "time"), FIRN_ROW(GpuStep, end, "end"), FIRN_ROW(GpuStep, dt, "dt"),
           FIRN_ROW(GpuStep, dt_cfl, "dt_cfl"), FIRN_ROW(GpuStep, max_speed, "max_speed"),
           FIRN_ROW(GpuStep, hardening, "hardening"), FIRN_ROW(GpuStep, cfl, "cfl"), FIRN_ROW(GpuStep, h, "h"),
           FIRN_ROW(GpuStep, dt_max, "dt_max"), FIRN_ROW(GpuStep, wave_scale, "wave_scale"),
           FIRN_ROW(GpuStep, solid_speed, "solid_speed"),
           FIRN_ROW(GpuStep, dt_f, "dt_f"), FIRN_ROW(GpuStep, speed_limit, "speed_limit"),
           FIRN_ROW(GpuStep, substep, "substep"), FIRN_ROW(GpuStep, count, "count"),
           FIRN_ROW(GpuStep, budget, "budget"), FIRN_ROW(GpuStep, taken, "taken"), FIRN_ROW(GpuStep, flags, "flags"),
           FIRN_ROW(GpuStep, material_count, "material_count"), FIRN_ROW(GpuStep, window_origin, "window_origin"),
           FIRN_ROW(GpuStep, window_lo, "window_lo"), FIRN_ROW(GpuStep, window_hi, "window_hi"),
           FIRN_ROW(GpuStep, window_need, "window_need")}),
      // Solver::upload_materials: lambda0 + 2 mu0 and rho0 per material; Solver::upload_collider_points: point and
      // velocity per collider; Solver::build_dispatch_args: uvec3 group counts as words.
      array_of<glm::dvec2>("glm::dvec2", "WaveInputs", MPM_BIND_STEP_MATERIALS, "stiffness_density"),
      array_of<uint32_t>("uint32_t", "DispatchArgs", MPM_BIND_DISPATCH_ARGS, "args"),
      // Active blocks (Solver's block buffers): uint flags, the uint list, the grid update's uvec3 as words.
      array_of<uint32_t>("uint32_t", "BlockFlags", MPM_BIND_BLOCK_FLAGS, "block_flags"),
      array_of<uint32_t>("uint32_t", "BlockList", MPM_BIND_BLOCK_LIST, "block_list"),
      array_of<uint32_t>("uint32_t", "BlockArgs", MPM_BIND_BLOCK_ARGS, "block_args"),
      // The particle sort (Solver's sort buffers): uint words.
      array_of<uint32_t>("uint32_t", "SortKeys", MPM_BIND_SORT_KEYS, "sort_keys"),
      array_of<uint32_t>("uint32_t", "SortRanks", MPM_BIND_SORT_RANKS, "sort_ranks"),
      array_of<uint32_t>("uint32_t", "SortStarts", MPM_BIND_SORT_STARTS, "sort_starts"),
      array_of<uint32_t>("uint32_t", "SortOrder", MPM_BIND_SORT_ORDER, "sort_order"),
      array_of<glm::dvec4>("glm::dvec4", "ColliderPoints", MPM_BIND_COLLIDER_POINTS, "collider_points"),
      array_of<GpuVelocityGradient>("mpm::GpuVelocityGradient", "AffineBuffer", MPM_BIND_AFFINE, "affine"),
      // Rigid bodies (src/mpm/rigid_colliders.h): float bodies, their planes as vec4s, the impulse words.
      array_of<GpuRigidBody>("GpuRigidBody", "RigidBodyBuffer", MPM_BIND_RIGID_BODIES, "rigid_bodies",
                             rigid_body_rows()),
      array_of<GpuRigidState>("GpuRigidState", "RigidStateBuffer", MPM_BIND_RIGID_STATE, "rigid_states",
                              rigid_state_rows()),
      array_of<glm::vec4>("glm::vec4", "RigidPlaneBuffer", MPM_BIND_RIGID_PLANES, "rigid_planes"),
      array_of<uint32_t>("uint32_t", "RigidImpulseBuffer", MPM_BIND_RIGID_IMPULSES, "rigid_impulses"),
      struct_block<GpuEnergySum>("mpm::GpuEnergySum", "EnergyBuffer", MPM_BIND_ENERGY, true, "",
                                 {FIRN_ROW(GpuEnergySum, lo, "energy_lo"), FIRN_ROW(GpuEnergySum, hi, "energy_hi"),
                                  FIRN_ROW(GpuEnergySum, overflow, "energy_overflow"),
                                  FIRN_ROW(GpuEnergySum, pad, "energy_pad")}),
      struct_block<GpuParams>("mpm::GpuParams", "MpmParams", MPM_BIND_PARAMS, false, "",
                              {FIRN_ROW(GpuParams, grid_min_h, "grid_min_h"),
                               FIRN_ROW(GpuParams, grid_dims, "grid_dims"),
                               FIRN_ROW(GpuParams, gravity_dt, "gravity_dt"), FIRN_ROW(GpuParams, scales, "scales"),
                               FIRN_ROW(GpuParams, counts, "counts"), FIRN_ROW(GpuParams, window_dims, "window_dims")}),
  };
}

std::vector<Mirror> sph_mirrors() {
  using namespace sph;
  const std::vector<Row> particle = {FIRN_ROW(GpuParticle, x_m, "x_m"), FIRN_ROW(GpuParticle, v_rho, "v_rho"),
                                     FIRN_ROW(GpuParticle, a_p, "a_p"), FIRN_ROW(GpuParticle, id, "id")};
  // The hash sort's word arrays (src/sph/hash_sort.cpp) and the loads (Solver::solid_loads) are uint32_t buffers.
  std::vector<Mirror> m = {
      array_of<GpuParticle>("sph::GpuParticle", "ParticleBuffer", SPH_BIND_PARTICLES, "particles", particle),
      array_of<GpuParticle>("sph::GpuParticle", "ParticleOut", SPH_BIND_PARTICLES_OUT, "sorted", particle),
      array_of<GpuCollider>("GpuCollider", "ColliderBuffer", SPH_BIND_COLLIDERS, "colliders", collider_rows()),
      array_of<GpuRegion>("sph::GpuRegion", "RegionBuffer", SPH_BIND_REGIONS, "regions",
                          {FIRN_ROW(GpuRegion, min_action, "min_action"),
                           FIRN_ROW(GpuRegion, max_thickness, "max_thickness"), FIRN_ROW(GpuRegion, vector, "vector"),
                           FIRN_ROW(GpuRegion, point, "point")}),
      struct_block<GpuStatus>("sph::GpuStatus", "StatusBuffer", SPH_BIND_STATUS, true, "StatusBuffer.",
                              status_rows<GpuStatus>({FIRN_ROW(GpuStatus, max_speed_bits, "max_speed_bits"),
                                                      FIRN_ROW(GpuStatus, max_accel_bits, "max_accel_bits"),
                                                      FIRN_ROW(GpuStatus, max_density_bits, "max_density_bits"),
                                                      FIRN_ROW(GpuStatus, max_potential_bits, "max_potential_bits"),
                                                      FIRN_ROW(GpuStatus, min_potential_bits, "min_potential_bits"),
                                                      FIRN_ROW(GpuStatus, nonfinite, "nonfinite"),
                                                      FIRN_ROW(GpuStatus, energy_lo, "energy_lo"),
                                                      FIRN_ROW(GpuStatus, energy_hi, "energy_hi")})),
      array_of<glm::vec4>("glm::vec4", "PositionBuffer", SPH_BIND_POSITIONS, "positions"),
      array_of<GpuBoundaryTerms>("sph::GpuBoundaryTerms", "BoundaryBuffer", SPH_BIND_BOUNDARY, "boundary",
                                 {FIRN_ROW(GpuBoundaryTerms, pressure_volume, "pressure_volume"),
                                  FIRN_ROW(GpuBoundaryTerms, viscous, "viscous"),
                                  FIRN_ROW(GpuBoundaryTerms, damping, "damping"),
                                  FIRN_ROW(GpuBoundaryTerms, body_share, "body_share"),
                                  FIRN_ROW(GpuBoundaryTerms, push, "push"),
                                  FIRN_ROW(GpuBoundaryTerms, lift, "lift")}),
      struct_block<GpuParams>(
          "sph::GpuParams", "SphParams", SPH_BIND_PARAMS, false, "",
          {FIRN_ROW(GpuParams, origin_cell, "origin_cell"), FIRN_ROW(GpuParams, kernel, "kernel"),
           FIRN_ROW(GpuParams, coef, "coef"), FIRN_ROW(GpuParams, material, "material"),
           FIRN_ROW(GpuParams, gravity_dt, "gravity_dt"), FIRN_ROW(GpuParams, domain_min, "domain_min"),
           FIRN_ROW(GpuParams, domain_max, "domain_max"), FIRN_ROW(GpuParams, counts, "counts"),
           FIRN_ROW(GpuParams, step, "step"), FIRN_ROW(GpuParams, field_origin_h, "field_origin_h"),
           FIRN_ROW(GpuParams, field_dims, "field_dims"), FIRN_ROW(GpuParams, damping, "damping")}),
      // Rigid bodies (sph::Solver::set_rigid_bodies): float bodies, double states, planes as vec4s.
      array_of<GpuRigidBody>("GpuRigidBody", "BodyBuffer", SPH_BIND_BODIES, "bodies", rigid_body_rows()),
      array_of<GpuRigidState>("GpuRigidState", "BodyStateBuffer", SPH_BIND_BODY_STATES, "body_states",
                              rigid_state_rows()),
      array_of<glm::vec4>("glm::vec4", "BodyPlaneBuffer", SPH_BIND_BODY_PLANES, "body_planes"),
      array_of<float>("float", "FieldFractionBuffer", SPH_BIND_FIELD_FRACTION, "field_fraction"),
      array_of<glm::vec4>("glm::vec4", "FieldMotionBuffer", SPH_BIND_FIELD_MOTION, "field_motion"),
      // DFSPH (sph::Solver::pressure_solve): the solve state, the per-slot factor and kappa, the dispatch arguments.
      struct_block<GpuPressureSolve>(
          "sph::GpuPressureSolve", "PressureSolveBuffer", SPH_BIND_PRESSURE_SOLVE, true, "PressureSolveBuffer.",
          {FIRN_ROW(GpuPressureSolve, error_lo, "error_lo"), FIRN_ROW(GpuPressureSolve, error_hi, "error_hi"),
           FIRN_ROW(GpuPressureSolve, predictions, "predictions"), FIRN_ROW(GpuPressureSolve, done, "done"),
           FIRN_ROW(GpuPressureSolve, last, "last"), FIRN_ROW(GpuPressureSolve, totals, "totals"),
           FIRN_ROW(GpuPressureSolve, error_max, "error_max"), FIRN_ROW(GpuPressureSolve, groups_done, "groups_done"),
           FIRN_ROW(GpuPressureSolve, pad1, "pad1"), FIRN_ROW(GpuPressureSolve, pad2, "pad2")}),
      array_of<glm::uvec4>("glm::uvec4", "SolverTermsBuffer", SPH_BIND_SOLVER_TERMS, "solver_terms"),
      array_of<glm::uvec4>("glm::uvec4", "SolveArgsBuffer", SPH_BIND_SOLVE_ARGS, "solve_args"),
      // GPU-resident stepping (src/sph/solver_advance.cpp): the step state; the colliders' points and velocities.
      struct_block<GpuStep>(
          "sph::GpuStep", "SphStep", SPH_BIND_STEP, true, "SphStep.",
          {FIRN_ROW(GpuStep, end, "end"), FIRN_ROW(GpuStep, forced_dt, "forced_dt"),
           FIRN_ROW(GpuStep, cfl_length, "cfl_length"), FIRN_ROW(GpuStep, wave_speed, "wave_speed"),
           FIRN_ROW(GpuStep, solid_speed, "solid_speed"),
           FIRN_ROW(GpuStep, h, "h"), FIRN_ROW(GpuStep, dt_max, "dt_max"), FIRN_ROW(GpuStep, dt_viscous, "dt_viscous"),
           FIRN_ROW(GpuStep, head_stiffness, "head_stiffness"),
           FIRN_ROW(GpuStep, energy_tolerance, "energy_tolerance"), FIRN_ROW(GpuStep, energy_slack, "energy_slack"),
           FIRN_ROW(GpuStep, budget, "budget"), FIRN_ROW(GpuStep, watch, "watch"),
           FIRN_ROW(GpuStep, energy_epoch, "energy_epoch"), FIRN_ROW(GpuStep, energy_scale, "energy_scale"),
           FIRN_ROW(GpuStep, time, "time"),
           FIRN_ROW(GpuStep, dt, "dt"), FIRN_ROW(GpuStep, max_speed, "max_speed"),
           FIRN_ROW(GpuStep, max_accel, "max_accel"), FIRN_ROW(GpuStep, max_density, "max_density"),
           FIRN_ROW(GpuStep, head, "head"),
           FIRN_ROW(GpuStep, energy, "energy"), FIRN_ROW(GpuStep, energy_start, "energy_start"),
           FIRN_ROW(GpuStep, dt_f, "dt_f"), FIRN_ROW(GpuStep, speed_limit, "speed_limit"),
           FIRN_ROW(GpuStep, step, "step"), FIRN_ROW(GpuStep, count, "count"), FIRN_ROW(GpuStep, taken, "taken"),
           FIRN_ROW(GpuStep, flags, "flags"), FIRN_ROW(GpuStep, energy_epoch_seen, "energy_epoch_seen"),
           FIRN_ROW(GpuStep, pad1, "pad1"), FIRN_ROW(GpuStep, pad2, "pad2"), FIRN_ROW(GpuStep, pad3, "pad3")}),
      array_of<glm::dvec4>("glm::dvec4", "ColliderPoints", SPH_BIND_COLLIDER_POINTS, "collider_points"),
      // The surface mesh (sph::SurfaceMesher): the box, then float values, vec4 vertices and uint words.
      struct_block<GpuMeshGrid>("sph::GpuMeshGrid", "MeshGrid", SPH_BIND_MESH_GRID, true, "MeshGrid.",
                                {FIRN_ROW(GpuMeshGrid, box_lo, "box_lo"), FIRN_ROW(GpuMeshGrid, box_hi, "box_hi"),
                                 FIRN_ROW(GpuMeshGrid, dims, "dims"), FIRN_ROW(GpuMeshGrid, lattice, "lattice")}),
      array_of<float>("float", "MeshValues", SPH_BIND_MESH_VALUES, "values"),
      array_of<glm::vec4>("glm::vec4", "MeshVertices", SPH_BIND_MESH_VERTICES, "vertices"),
  };
  const std::pair<const char*, std::pair<int, const char*>> words[] = {
      {"KeyBuffer", {SPH_BIND_KEYS, "keys"}},
      {"OrderBuffer", {SPH_BIND_ORDER, "order"}},
      {"RankBuffer", {SPH_BIND_RANK, "ranks"}},
      {"CellStartBuffer", {SPH_BIND_CELL_START, "cell_start"}},
      {"CountBuffer", {SPH_BIND_CELL_START, "counts_"}},
      {"KeysIn", {SPH_BIND_RADIX_KEYS_IN, "keys_in"}},
      {"ValsIn", {SPH_BIND_RADIX_VALS_IN, "vals_in"}},
      {"KeysOut", {SPH_BIND_RADIX_KEYS_OUT, "keys_out"}},
      {"ValsOut", {SPH_BIND_RADIX_VALS_OUT, "vals_out"}},
      {"Hist", {SPH_BIND_RADIX_HIST, "hist"}},
      {"ListBuffer", {SPH_BIND_NEIGHBOURS, "lists"}},
      {"LoadBuffer", {SPH_BIND_LOADS, "loads"}},
      {"BodyImpulseBuffer", {SPH_BIND_BODY_IMPULSES, "body_impulses"}},
      {"FieldReactionBuffer", {SPH_BIND_FIELD_REACTION, "field_reaction"}},
      {"NeighbourListBuffer", {SPH_BIND_NEIGHBOUR_LISTS, "neighbour_lists"}},
      {"MeshBlocks", {SPH_BIND_MESH_BLOCKS, "blocks"}},
      {"MeshList", {SPH_BIND_MESH_LIST, "block_list"}},
      {"MeshMasks", {SPH_BIND_MESH_MASKS, "masks"}},
      {"MeshVertexStart", {SPH_BIND_MESH_VERTEX_START, "vertex_start"}},
      {"MeshTriangleStart", {SPH_BIND_MESH_TRIANGLE_START, "triangle_start"}},
      {"MeshTriangles", {SPH_BIND_MESH_TRIANGLES, "triangles"}},
  };
  for (const auto& [block, where] : words)
    m.push_back(array_of<uint32_t>("uint32_t", block, where.first, where.second));
  return m;
}

/// The snow-water coupling's blocks (shaders/coupling/layout.glsl), plus the blocks named `blocks` of one solver's
/// mirrors `solver` (those that the solver's layout includes declare in a pass over its particles).
std::vector<Mirror> coupling_mirrors(const std::vector<Mirror>& solver, const std::set<std::string>& blocks) {
  using app::GpuCouplingParams;
  std::vector<Mirror> m = {
      struct_block<GpuCouplingParams>("app::GpuCouplingParams", "CouplingParams", COUPLING_BIND_PARAMS, true, "",
                                      {FIRN_ROW(GpuCouplingParams, origin_h, "cpl_origin_h"),
                                       FIRN_ROW(GpuCouplingParams, dims, "cpl_dims"),
                                       FIRN_ROW(GpuCouplingParams, scales, "cpl_scales"),
                                       FIRN_ROW(GpuCouplingParams, contact, "cpl_contact"),
                                       FIRN_ROW(GpuCouplingParams, counts, "cpl_counts")}),
      array_of<uint32_t>("uint32_t", "CouplingNodes", COUPLING_BIND_NODES, "cpl_nodes"),
      array_of<uint32_t>("uint32_t", "CouplingList", COUPLING_BIND_LIST, "cpl_list"),
      array_of<glm::vec4>("glm::vec4", "CouplingDeltas", COUPLING_BIND_DELTAS, "cpl_deltas"),
  };
  for (const Mirror& b : solver)
    if (blocks.count(b.block)) m.push_back(b);
  return m;
}

std::vector<Mirror> render_mirrors() {
  // The sphere impostors read any solver's particle records as floats at offsets that render/particle_renderer.cpp
  // takes from offsetof of mpm::GpuParticle and sph::GpuParticle.
  return {array_of<float>("float", "ParticleData", RENDER_BIND_PARTICLES, "data")};
}

/// A program the project builds: its shader files under shaders/ and the defines it is built with.
struct ProgramSpec {
  std::vector<std::string> files;  ///< one compute shader, or a vertex and a fragment shader
  std::vector<std::string> defines;
};

/// Every compute shader in shaders/<dir>, built without defines, plus `variants`.
std::vector<ProgramSpec> compute_programs(const std::string& dir, std::vector<ProgramSpec> variants) {
  std::vector<ProgramSpec> specs;
  for (const auto& e : std::filesystem::directory_iterator(shader_dir() / dir))
    if (e.path().extension() == ".comp") specs.push_back({{dir + "/" + e.path().filename().string()}, {}});
  std::sort(specs.begin(), specs.end(), [](const auto& a, const auto& b) { return a.files < b.files; });
  specs.insert(specs.end(), variants.begin(), variants.end());
  return specs;
}

gl::Program link(const ProgramSpec& p) {
  if (p.files.size() == 1) return gl::Program::compute(p.files[0], p.defines);
  return gl::Program::render(p.files[0], p.files[1], p.defines);
}

std::string describe(const ProgramSpec& p) {
  std::string s;
  for (const auto& f : p.files) s += (s.empty() ? "" : " + ") + f;
  for (const auto& d : p.defines) s += " [" + d + "]";
  return s;
}

/// Checks one reflected block against its mirror (failures name `where`, the program).
void check_block(const gl::BlockLayout& b, const Mirror& m, const std::string& where) {
  SCOPED_TRACE(where + ", block " + b.name + " (C++ " + m.cpp + ")");
  EXPECT_EQ(b.storage, m.storage) << "storage block in one, uniform block in the other";
  EXPECT_EQ(b.binding, m.binding) << "the shader's binding differs from the C++ constant";
  std::set<std::string> seen;
  size_t end = 0;
  for (const gl::BlockVariable& v : b.variables) {
    const auto r = std::find_if(m.rows.begin(), m.rows.end(), [&](const Row& r) { return r.glsl == v.name; });
    if (r == m.rows.end()) {
      ADD_FAILURE() << "GLSL variable " << v.name << " (" << gl::type_name(v.type) << " at " << v.offset
                    << ") has no row in the C++ mirror's table";
      continue;
    }
    seen.insert(v.name);
    const size_t bytes = gl::type_bytes(v.type, v.matrix_stride);
    EXPECT_EQ(size_t(v.offset), r->offset) << v.name << ": GLSL offset vs C++ offsetof";
    EXPECT_EQ(bytes, r->bytes) << v.name << ": GLSL " << gl::type_name(v.type) << " vs C++ member size";
    if (!r->top) {
      EXPECT_EQ(size_t(std::max(v.array_size, 1)), std::max<size_t>(r->count, 1)) << v.name << ": array length";
      if (r->count > 0) {
        EXPECT_EQ(size_t(v.array_stride), r->bytes) << v.name << ": GLSL array stride";
      }
    }
    if (m.array) {
      // Mesa reports GL_TOP_LEVEL_ARRAY_STRIDE 0 for an unsized array of a basic type; its stride is then the
      // variable's own array stride.
      const int stride = v.top_level_array_stride != 0 ? v.top_level_array_stride : v.array_stride;
      EXPECT_EQ(size_t(stride), m.size) << v.name << ": GLSL array element stride vs C++ sizeof";
    }
    end = std::max(end, size_t(v.offset) + bytes * std::max<size_t>(r->count, 1));
  }
  for (const Row& r : m.rows)
    EXPECT_TRUE(seen.count(r.glsl)) << "the C++ mirror's row " << r.glsl << " is not a variable of the GLSL block";
  if (!m.array) {
    // The C++ buffer (sizeof) must hold what GL asks for; and a struct whose members are the GLSL block's has
    // sizeof = the last one's end rounded up to alignof, so a larger sizeof hides a C++-only member at the end.
    EXPECT_GE(m.size, size_t(b.data_size)) << "C++ sizeof below GL_BUFFER_DATA_SIZE";
    EXPECT_EQ(m.size, (end + m.align - 1) / m.align * m.align) << "C++ struct longer than the GLSL block's members";
  }
}

/// Links every program of one subsystem and checks each of its blocks; every mirror must be met at least once.
void check_programs(const std::vector<ProgramSpec>& programs, const std::vector<Mirror>& mirrors) {
  test::gl_context();
  std::map<std::string, int> met;
  for (const ProgramSpec& p : programs) {
    const gl::Program program = link(p);
    for (const gl::BlockLayout& b : gl::program_blocks(program.id())) {
      const auto m = std::find_if(mirrors.begin(), mirrors.end(), [&](const Mirror& m) { return m.block == b.name; });
      if (m == mirrors.end()) {
        ADD_FAILURE() << describe(p) << ": block " << b.name << " (binding " << b.binding
                      << ") has no C++ mirror in tests/gl/test_struct_layouts.cpp";
        continue;
      }
      ++met[b.name];
      check_block(b, *m, describe(p));
    }
  }
  for (const Mirror& m : mirrors)
    EXPECT_GT(met[m.block], 0) << "no program declares block " << m.block << " (C++ " << m.cpp << ")";
}

TEST(StructLayouts, SnowProgramsMatchTheirCppMirrors) {
  // The define variants that mpm::Solver builds (transfer_defines, the mass-only particle-to-grid, the grid update
  // with rigid bodies).
  check_programs(compute_programs("mpm", {{{"mpm/p2g.comp"}, {"#define MPM_APIC"}},
                                          {{"mpm/g2p.comp"}, {"#define MPM_APIC"}},
                                          {{"mpm/p2g.comp"}, {"#define MPM_APIC", "#define MPM_MLS"}},
                                          {{"mpm/g2p.comp"}, {"#define MPM_APIC", "#define MPM_MLS"}},
                                          {{"mpm/p2g.comp"}, {"#define P2G_MASS_ONLY"}},
                                          {{"mpm/p2g.comp"}, {"#define MPM_P2G_SORTED"}},
                                          {{"mpm/p2g.comp"}, {"#define MPM_APIC", "#define MPM_P2G_SORTED"}},
                                          {{"mpm/p2g.comp"}, {"#define MPM_APIC", "#define MPM_MLS",
                                                              "#define MPM_P2G_SORTED"}},
                                          {{"mpm/cell_sort.comp"}, {"#define MPM_SORT_SCATTER"}},
                                          {{"mpm/cell_sort.comp"}, {"#define MPM_APIC", "#define MPM_MLS"}},
                                          {{"mpm/p2g.comp"}, {"#define MPM_QUADRATIC"}},
                                          {{"mpm/g2p.comp"}, {"#define MPM_QUADRATIC"}},
                                          {{"mpm/p2g.comp"}, {"#define MPM_QUADRATIC", "#define MPM_P2G_SORTED"}},
                                          {{"mpm/p2g.comp"}, {"#define MPM_APIC", "#define MPM_QUADRATIC",
                                                              "#define MPM_P2G_SORTED"}},
                                          {{"mpm/cell_sort.comp"}, {"#define MPM_QUADRATIC"}},
                                          {{"mpm/grid_update.comp"}, {"#define MPM_RIGID"}}}),
                 mpm_mirrors());
}

TEST(StructLayouts, WaterProgramsMatchTheirCppMirrors) {
  check_programs(compute_programs("sph", {}), sph_mirrors());
}

TEST(StructLayouts, SharedProgramsMatchTheirCppMirrors) {
  // The prefix sum (gl/scan.h) scans and keeps uint32_t words.
  check_programs(compute_programs("common", {}),
                 {array_of<uint32_t>("uint32_t", "ScanData", SCAN_BIND_DATA, "data"),
                  array_of<uint32_t>("uint32_t", "ScanPartials", SCAN_BIND_PARTIALS, "partials")});
}

TEST(StructLayouts, CouplingProgramsMatchTheirCppMirrors) {
  // Each pass reads one solver's particles (the snow's and the water's blocks share the name ParticleBuffer).
  check_programs({{{"coupling/p2g_snow.comp"}, {}},
                  {{"coupling/p2g_snow.comp"}, {"#define COUPLING_FIELD"}},
                  {{"coupling/g2p_snow.comp"}, {}}},
                 coupling_mirrors(mpm_mirrors(),
                                  {"ParticleBuffer", "MpmParams", "MpmStep", "AffineBuffer", "MaterialBuffer"}));
  check_programs({{{"coupling/p2g_water.comp"}, {}}, {{"coupling/g2p_water.comp"}, {}}},
                 coupling_mirrors(sph_mirrors(), {"ParticleBuffer", "SphParams", "SphStep"}));
  // The contact and field passes also use the water's solid field (sph/solid_field.h).
  check_programs({{{"coupling/contact.comp"}, {}}}, coupling_mirrors(sph_mirrors(), {"FieldReactionBuffer"}));
  std::vector<Mirror> field = coupling_mirrors(sph_mirrors(), {"FieldFractionBuffer", "FieldMotionBuffer"});
  field.push_back(array_of<uint32_t>("uint32_t", "CouplingFieldList", COUPLING_BIND_FIELD_LIST, "field_list"));
  check_programs({{{"coupling/field_nodes.comp"}, {}}, {{"coupling/field_set.comp"}, {}}}, field);
}

TEST(StructLayouts, RenderProgramsMatchTheirCppMirrors) {
  // Every program the renderers build (src/render); the vertex attributes' offsets are offsetof on the C++ side
  // (glVertexAttribFormat) and need no mirror.
  check_programs({{{"render/sphere.vert", "render/sphere.frag"}, {}},
                  {{"render/sphere.vert", "render/fluid_depth.frag"}, {}},
                  {{"render/sphere.vert", "render/fluid_thickness.frag"}, {}},
                  {{"render/fluid_fullscreen.vert", "render/fluid_smooth.frag"}, {}},
                  {{"render/fluid_fullscreen.vert", "render/fluid_composite.frag"}, {}},
                  {{"render/surface.vert", "render/surface.frag"}, {}},
                  {{"render/polyhedron.vert", "render/polyhedron.frag"}, {}}},
                 render_mirrors());
}

}  // namespace
}  // namespace firn

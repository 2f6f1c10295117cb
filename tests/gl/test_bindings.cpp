// The storage-buffer binding points of the solvers (shaders/common/bindings.h) never coincide: a scene with snow
// and water binds both solvers' buffers in one context, and a shared point would let one solver read the other's.
#include <gtest/gtest.h>

#include <set>

#include "common/bindings.h"

TEST(Bindings, SnowAndWaterStoragePointsAreDisjoint) {
  const std::set<int> snow = {MPM_BIND_PARTICLES, MPM_BIND_GRID, MPM_BIND_GRID_VEL, MPM_BIND_VELGRAD,
                              MPM_BIND_COLLIDERS, MPM_BIND_MATERIALS, MPM_BIND_STATUS, MPM_BIND_STEP,
                              MPM_BIND_STEP_MATERIALS, MPM_BIND_DISPATCH_ARGS, MPM_BIND_COLLIDER_POINTS,
                              MPM_BIND_AFFINE, MPM_BIND_RIGID_BODIES, MPM_BIND_RIGID_PLANES,
                              MPM_BIND_RIGID_IMPULSES, MPM_BIND_RIGID_STATE, MPM_BIND_BLOCK_FLAGS,
                              MPM_BIND_BLOCK_LIST, MPM_BIND_BLOCK_ARGS, MPM_BIND_SORT_KEYS, MPM_BIND_SORT_RANKS,
                              MPM_BIND_SORT_STARTS, MPM_BIND_SORT_ORDER, MPM_BIND_ENERGY};
  const std::set<int> water = {SPH_BIND_PARTICLES, SPH_BIND_PARTICLES_OUT, SPH_BIND_KEYS, SPH_BIND_ORDER,
                               SPH_BIND_RANK, SPH_BIND_CELL_START, SPH_BIND_COLLIDERS, SPH_BIND_REGIONS,
                               SPH_BIND_STATUS, SPH_BIND_RADIX_KEYS_IN,
                               SPH_BIND_RADIX_VALS_IN, SPH_BIND_RADIX_KEYS_OUT, SPH_BIND_RADIX_VALS_OUT,
                               SPH_BIND_RADIX_HIST, SPH_BIND_NEIGHBOURS, SPH_BIND_POSITIONS, SPH_BIND_BOUNDARY,
                               SPH_BIND_LOADS};
  EXPECT_EQ(snow.size(), 24u) << "two snow buffers share a point";
  EXPECT_EQ(water.size(), 18u) << "two water buffers share a point";
  for (int b : water) EXPECT_EQ(snow.count(b), 0u) << "binding " << b << " is both a snow and a water buffer";
  // The prefix sum (gl/scan.h) serves both solvers' sorts: its points are neither solver's own.
  for (int b : {SCAN_BIND_DATA, SCAN_BIND_PARTIALS}) {
    EXPECT_EQ(snow.count(b), 0u) << "binding " << b << " is both a snow and a scan buffer";
    EXPECT_EQ(water.count(b), 0u) << "binding " << b << " is both a water and a scan buffer";
  }
  // The snow-water coupling binds both solvers' particles beside its own buffers.
  const std::set<int> coupling = {COUPLING_BIND_PARAMS, COUPLING_BIND_NODES, COUPLING_BIND_LIST, COUPLING_BIND_DELTAS};
  EXPECT_EQ(coupling.size(), 4u) << "two coupling buffers share a point";
  for (int b : coupling) {
    EXPECT_EQ(snow.count(b), 0u) << "binding " << b << " is both a snow and a coupling buffer";
    EXPECT_EQ(water.count(b), 0u) << "binding " << b << " is both a water and a coupling buffer";
  }
}

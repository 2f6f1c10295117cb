#pragma once
/// Conversion of the plain-data settings into the SPH shaders' std430 / std140 structs.
#include <vector>

#include "core/collider.h"
#include "core/gpu_collider.h"
#include "sph/layout.h"
#include "sph/settings.h"

namespace firn::sph {

/// Edge of a hash cell [m]: h / SPH_CELL_REACH (1 + 1/64). The margin keeps every pair closer than h within
/// SPH_CELL_REACH cells of each other on every axis despite float32 rounding of the cell coordinates, for positions
/// up to kMaxCellsFromOrigin cells from the hash origin.
double hash_cell_size(const SphSettings& s);

/// Largest distance from the hash origin (the domain centre) in hash cells for which the margin above holds:
/// the rounding of floor((x - origin) / cell) is below 2.4e-7 times this, well under the 1/64 margin.
inline constexpr double kMaxCellsFromOrigin = 65536.0;

/// Control regions in the shaders' layout; a boundary slab of thickness 0 gets 2 h.
std::vector<GpuRegion> to_gpu(const std::vector<Region>& regions, double h);

/// The uniform block (what stays from step to step; dt and the step index live in GpuStep). `table_size` is the
/// hash table size T.
GpuParams make_params(const SphSettings& s, const glm::dvec3& gravity, uint32_t particles, uint32_t table_size,
                      uint32_t colliders, uint32_t regions);

/// Stiffness of the equation of state: Tait B = rho0 c^2 / 7 [Pa], or Mueller's k = c^2 [m^2/s^2].
double eos_stiffness(const SphSettings& s);

}  // namespace firn::sph

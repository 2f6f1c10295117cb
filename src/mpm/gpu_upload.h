#pragma once
/// Conversion of the plain-data settings into the shaders' std430/std140 structs.
#include <vector>

#include "core/collider.h"
#include "core/gpu_collider.h"
#include "mpm/fixed_point.h"
#include "mpm/layout.h"
#include "mpm/settings.h"

namespace firn::mpm {

/// Materials with their Lame parameters (Stomakhin 2013 Eq. 31) in the shaders' layout.
std::vector<GpuMaterial> to_gpu(const std::vector<Material>& materials);
/// The uniform block of one substep: grid, gravity, dt [s], fixed-point scales, counts and flags. The CFL speed
/// limit (scales.w) is h / dt: a particle faster than that crosses more than one cell in a substep.
GpuParams make_params(const MpmSettings& s, const FixedPointScales& scales, const glm::ivec3& dims,
                      const glm::dvec3& gravity, double dt, uint32_t particles, uint32_t colliders, uint32_t substep);

}  // namespace firn::mpm

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
/// The uniform block: grid (`dims` nodes; the buffers hold a window of `window` nodes), gravity, fixed-point scales,
/// counts and flags (dt, the substep index and the window's origin are in GpuStep).
GpuParams make_params(const MpmSettings& s, const FixedPointScales& scales, const glm::ivec3& dims,
                      const glm::ivec3& window,
                      const glm::dvec3& gravity, uint32_t particles, uint32_t colliders, uint32_t rigid_bodies = 0);
/// Per material, lambda0 + 2 mu0 [Pa] and rho0 [kg/m^3] in double: the inputs of the CFL wave speed.
std::vector<glm::dvec2> to_gpu_wave_inputs(const std::vector<Material>& materials);

}  // namespace firn::mpm

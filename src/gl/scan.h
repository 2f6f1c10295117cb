#pragma once
/// Exclusive prefix sum of a uint32 buffer on the GPU: the scan of the counting sorts (the water's hash sort,
/// src/sph/hash_sort.h; the snow's particle sort, shaders/mpm/cell_sort.comp). Three passes (shaders/common/scan_*.comp):
/// per-tile sums, one work group scanning the tile sums, each tile scanned with its offset. No read-back.
#include <cstddef>
#include <cstdint>

#include "gl/buffer.h"
#include "gl/program.h"

namespace firn::gl {

/// Exclusive prefix sum of uint32 entries (wrapping modulo 2^32, as the counts it scans never do).
class Scan {
 public:
  /// Scratch for scans of up to `max_count` entries. Throws std::invalid_argument above 2^24 entries (the tile
  /// sums are scanned by one work group: at most SCAN_LOCAL_SIZE * SCAN_ITEMS tiles).
  explicit Scan(uint32_t max_count);
  /// Replaces data[0, count) by its exclusive prefix sum, in place; count <= max_count (else std::invalid_argument).
  /// Binds SCAN_BIND_DATA and SCAN_BIND_PARTIALS and issues its own storage barriers.
  void run(const Buffer& data, uint32_t count);
  /// Bytes of the scratch buffer.
  size_t gpu_bytes() const { return partials_.size(); }

 private:
  uint32_t max_count_;
  Buffer partials_;
  Program reduce_, partials_scan_, apply_;
};

}  // namespace firn::gl

#pragma once
/// The GPU neighbour structure of the SPH solver: particles sorted by the hash key of their cell every step, and a
/// table cell_start[T + 1] with the first sorted slot of each key. T = next power of two >= 2 N depends on the
/// particle count N only, never on the domain, so a 1 km domain costs the same memory as a 1 m one.
#include <cstddef>
#include <cstdint>

#include "gl/buffer.h"
#include "gl/program.h"
#include "gl/scan.h"
#include "gl/timer.h"
#include "sph/settings.h"

namespace firn::sph {

/// Hash table size for `particles` particles: the smallest power of two >= 2 * particles (at least 2).
uint32_t table_size_for(uint32_t particles);

/// Sorts particle indices by cell hash key (counting sort or LSD radix sort; both give the order (key, index)) and
/// builds the cell_start table. Needs the SPH uniform block bound (cell size, origin, table size).
class HashSort {
 public:
  explicit HashSort(uint32_t particles);

  /// Sorts the particles bound at SPH_BIND_PARTICLES: afterwards order()[s] is the index (before sorting) of the
  /// particle for sorted slot s and cell_start() is filled. Issues its own memory barriers.
  void sort(SortMethod method, gl::PassTimer& timer);

  const gl::Buffer& order() const { return order_; }
  const gl::Buffer& cell_start() const { return cell_start_; }
  uint32_t table_size() const { return table_size_; }
  /// Bytes of every GPU buffer this object owns.
  size_t gpu_bytes() const;

 private:
  void counting_sort(gl::PassTimer& timer);
  void radix_sort(gl::PassTimer& timer);

  uint32_t count_, table_size_, radix_tiles_, radix_passes_;
  gl::Buffer keys_, order_, rank_, cell_start_, keys_tmp_, order_tmp_, hist_;
  gl::Scan scan_;
  gl::Program count_keys_, scatter_, bucket_fix_, radix_keys_, radix_hist_, radix_scatter_, cell_table_;
};

}  // namespace firn::sph

#include "sph/hash_sort.h"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <utility>

#include "common/bindings.h"
#include "gl/error.h"

namespace firn::sph {
namespace {

constexpr uint32_t kRadixTile = SPH_RADIX_LOCAL_SIZE * SPH_RADIX_ITEMS;

uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

void barrier() { glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT); }

void dispatch_groups(const gl::Program& p, uint32_t groups) {
  if (groups == 0) return;
  p.use();
  glDispatchCompute(groups, 1, 1);
  gl::check("glDispatchCompute");  // past 65,535 groups GL refuses the dispatch: an error, never a skipped pass
}

void copy_buffer(const gl::Buffer& from, const gl::Buffer& to) { to.copy_from(from, 0, 0, to.size()); }

}  // namespace

uint32_t table_size_for(uint32_t particles) {
  return std::max<uint32_t>(2, std::bit_ceil(2u * std::max<uint32_t>(particles, 1)));
}

HashSort::HashSort(uint32_t particles)
    : count_(particles),
      table_size_(table_size_for(particles)),
      radix_tiles_(std::max<uint32_t>(1, ceil_div(particles, kRadixTile))),
      radix_passes_(ceil_div(static_cast<uint32_t>(std::countr_zero(table_size_)), SPH_RADIX_BITS)),
      keys_(sizeof(uint32_t) * particles),
      order_(sizeof(uint32_t) * particles),
      rank_(sizeof(uint32_t) * particles),
      cell_start_(sizeof(uint32_t) * (table_size_ + 1)),
      keys_tmp_(sizeof(uint32_t) * particles),
      order_tmp_(sizeof(uint32_t) * particles),
      hist_(sizeof(uint32_t) * SPH_RADIX_BUCKETS * radix_tiles_),
      scan_(std::max(table_size_ + 1, SPH_RADIX_BUCKETS * radix_tiles_)),
      count_keys_(gl::Program::compute("sph/count_keys.comp")),
      scatter_(gl::Program::compute("sph/scatter.comp")),
      bucket_fix_(gl::Program::compute("sph/bucket_fix.comp")),
      radix_keys_(gl::Program::compute("sph/radix_keys.comp")),
      radix_hist_(gl::Program::compute("sph/radix_hist.comp")),
      radix_scatter_(gl::Program::compute("sph/radix_scatter.comp")),
      cell_table_(gl::Program::compute("sph/cell_table.comp")) {}

size_t HashSort::gpu_bytes() const {
  return keys_.size() + order_.size() + rank_.size() + cell_start_.size() + keys_tmp_.size() + order_tmp_.size() +
         hist_.size() + scan_.gpu_bytes();
}

void HashSort::sort(SortMethod method, gl::PassTimer& timer) {
  if (method == SortMethod::kRadix) {
    radix_sort(timer);
  } else {
    counting_sort(timer);
  }
}

void HashSort::counting_sort(gl::PassTimer& timer) {
  gl::ScopedPass t(timer, "sort");
  cell_start_.clear();
  keys_.bind_storage(SPH_BIND_KEYS);
  rank_.bind_storage(SPH_BIND_RANK);
  cell_start_.bind_storage(SPH_BIND_CELL_START);
  order_.bind_storage(SPH_BIND_ORDER);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  count_keys_.dispatch_1d(count_, SPH_LOCAL_SIZE);
  barrier();
  scan_.run(cell_start_, table_size_ + 1);  // entry T is 0, so cell_start[T] = N
  cell_start_.bind_storage(SPH_BIND_CELL_START);
  scatter_.dispatch_1d(count_, SPH_LOCAL_SIZE);
  barrier();
  bucket_fix_.dispatch_1d(table_size_, SPH_LOCAL_SIZE);
  barrier();
}

void HashSort::radix_sort(gl::PassTimer& timer) {
  gl::ScopedPass t(timer, "sort");
  keys_.bind_storage(SPH_BIND_KEYS);
  order_.bind_storage(SPH_BIND_ORDER);
  radix_keys_.dispatch_1d(count_, SPH_LOCAL_SIZE);
  barrier();
  const gl::Buffer* in_keys = &keys_;
  const gl::Buffer* in_vals = &order_;
  const gl::Buffer* out_keys = &keys_tmp_;
  const gl::Buffer* out_vals = &order_tmp_;
  for (uint32_t pass = 0; pass < radix_passes_; ++pass) {
    const unsigned shift = pass * SPH_RADIX_BITS;
    radix_hist_.set("u_count", count_);
    radix_hist_.set("u_shift", shift);
    radix_scatter_.set("u_count", count_);
    radix_scatter_.set("u_shift", shift);
    in_keys->bind_storage(SPH_BIND_RADIX_KEYS_IN);
    in_vals->bind_storage(SPH_BIND_RADIX_VALS_IN);
    out_keys->bind_storage(SPH_BIND_RADIX_KEYS_OUT);
    out_vals->bind_storage(SPH_BIND_RADIX_VALS_OUT);
    hist_.bind_storage(SPH_BIND_RADIX_HIST);
    dispatch_groups(radix_hist_, radix_tiles_);
    barrier();
    scan_.run(hist_, SPH_RADIX_BUCKETS * radix_tiles_);
    hist_.bind_storage(SPH_BIND_RADIX_HIST);
    dispatch_groups(radix_scatter_, radix_tiles_);
    barrier();
    std::swap(in_keys, out_keys);
    std::swap(in_vals, out_vals);
  }
  if (in_keys != &keys_) {  // an odd number of passes leaves the result in the scratch pair
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    copy_buffer(keys_tmp_, keys_);
    copy_buffer(order_tmp_, order_);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  }
  keys_.bind_storage(SPH_BIND_KEYS);
  order_.bind_storage(SPH_BIND_ORDER);
  cell_start_.bind_storage(SPH_BIND_CELL_START);
  cell_table_.dispatch_1d(table_size_ + 1, SPH_LOCAL_SIZE);
  barrier();
}

}  // namespace firn::sph

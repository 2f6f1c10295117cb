#include "gl/scan.h"

#include <algorithm>
#include <stdexcept>

#include "common/bindings.h"
#include "gl/error.h"

namespace firn::gl {
namespace {

constexpr uint32_t kScanTile = SCAN_LOCAL_SIZE * SCAN_ITEMS;

uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

void dispatch_groups(const Program& p, uint32_t groups) {
  if (groups == 0) return;
  p.use();
  glDispatchCompute(groups, 1, 1);
  check("glDispatchCompute");  // at most 4096 groups (2^24 entries), well inside GL's 65,535
}

}  // namespace

Scan::Scan(uint32_t max_count)
    : max_count_(max_count),
      partials_(sizeof(uint32_t) * std::max<uint32_t>(1, ceil_div(max_count, kScanTile))),
      reduce_(Program::compute("common/scan_reduce.comp")),
      partials_scan_(Program::compute("common/scan_partials.comp")),
      apply_(Program::compute("common/scan_apply.comp")) {
  if (ceil_div(max_count, kScanTile) > kScanTile) throw std::invalid_argument("gl::Scan: more than 2^24 entries");
}

void Scan::run(const Buffer& data, uint32_t count) {
  if (count > max_count_) throw std::invalid_argument("gl::Scan::run: count above the capacity");
  const uint32_t tiles = ceil_div(count, kScanTile);
  data.bind_storage(SCAN_BIND_DATA);
  partials_.bind_storage(SCAN_BIND_PARTIALS);
  reduce_.set("u_count", count);
  partials_scan_.set("u_count", tiles);
  apply_.set("u_count", count);
  dispatch_groups(reduce_, tiles);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  dispatch_groups(partials_scan_, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  dispatch_groups(apply_, tiles);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

}  // namespace firn::gl

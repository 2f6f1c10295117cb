#include "dem/sweep_and_prune.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace firn::dem {
namespace {

/// Strict order of the endpoint lists: by value, and at equal value a min before a max (closed boxes).
bool endpoint_less(const SapEndpoint& a, const SapEndpoint& b) {
  return a.value < b.value || (a.value == b.value && a.is_max < b.is_max);
}

void validate_boxes(std::span<const Aabb> boxes) {
  if (boxes.size() >= std::numeric_limits<std::uint32_t>::max()) {
    throw std::runtime_error("dem/sweep_and_prune: at most 2^32 - 2 boxes, got " + std::to_string(boxes.size()));
  }
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const Aabb& b = boxes[i];
    // Cheap check first (all comparisons are false for NaN; infinities fail the finite-width test); the message is
    // built only for a bad box.
    const glm::dvec3 w = b.max - b.min;
    const bool ok = w.x >= 0.0 && w.y >= 0.0 && w.z >= 0.0 && w.x + w.y + w.z < INFINITY &&
                    std::abs(b.min.x) + std::abs(b.min.y) + std::abs(b.min.z) < INFINITY;
    if (!ok) validate_aabb(b, ("box " + std::to_string(i)).c_str());
  }
}

double end_value(const Aabb& box, std::uint32_t is_max, int axis) { return is_max ? box.max[axis] : box.min[axis]; }

/// x has just moved left past y (x now before y). A min passing a max of another box may start an overlap, a max
/// passing a min ends one on this axis (§4.1.1); min past min or max past max changes nothing. The event is only
/// recorded here and applied in apply_events: within one update a pair is added only if its new boxes overlap and
/// removed only if they do not, so the order of application does not matter. Batching the random box and hash
/// accesses outside the sort loop lets their cache misses overlap (~15 % less CPU time at 1e5 boxes, measured).
void record_swap(std::vector<SapEvent>& events, const SapEndpoint& x, const SapEndpoint& y) {
  if (x.is_max == y.is_max || x.box == y.box) return;
  events.push_back({x.box, y.box, x.is_max});
}

/// Insertion sort of one axis (App. B), recording an event for every exchange of a min with a max.
void insertion_sort_axis(SweepAndPrune& sap, std::vector<SapEndpoint>& list) {
  for (std::size_t i = 1; i < list.size(); ++i) {
    const SapEndpoint x = list[i];
    std::size_t j = i;
    while (j > 0 && endpoint_less(x, list[j - 1])) {
      record_swap(sap.events, x, list[j - 1]);
      list[j] = list[j - 1];
      --j;
    }
    sap.last.swaps += i - j;
    list[j] = x;
  }
}

/// Applies the recorded events: start -> add the pair if the new boxes overlap on all three axes (O(1) test,
/// notes §5.3); stop -> remove the pair.
void apply_events(SweepAndPrune& sap) {
  for (const SapEvent& e : sap.events) {
    if (!e.stop) {
      if (overlaps(sap.boxes[e.a], sap.boxes[e.b]) && pair_set_insert(sap.pairs, e.a, e.b)) ++sap.last.pairs_added;
    } else if (pair_set_erase(sap.pairs, e.a, e.b)) {
      ++sap.last.pairs_removed;
    }
  }
  sap.events.clear();
}

void fill_axis(std::vector<SapEndpoint>& list, std::span<const Aabb> boxes, int axis) {
  list.resize(2 * boxes.size());
  for (std::uint32_t i = 0; i < boxes.size(); ++i) {
    list[2 * i] = {boxes[i].min[axis], i, 0};
    list[2 * i + 1] = {boxes[i].max[axis], i, 1};
  }
  std::sort(list.begin(), list.end(), endpoint_less);
}

/// One pass over the sorted x list with an active list: on a min, test the new box against every active box
/// (3-D test), then activate it; on a max, deactivate it. Min-before-max ties make touching boxes meet.
void sweep_x(SweepAndPrune& sap) {
  std::vector<std::uint32_t> active;
  std::vector<std::uint32_t> slot(sap.boxes.size());
  for (const SapEndpoint& e : sap.axes[0]) {
    if (!e.is_max) {
      for (std::uint32_t other : active) {
        if (overlaps(sap.boxes[e.box], sap.boxes[other])) pair_set_insert(sap.pairs, e.box, other);
      }
      slot[e.box] = static_cast<std::uint32_t>(active.size());
      active.push_back(e.box);
    } else {
      const std::uint32_t moved = active.back();
      active[slot[e.box]] = moved;
      slot[moved] = slot[e.box];
      active.pop_back();
    }
  }
}

}  // namespace

void sap_rebuild(SweepAndPrune& sap, std::span<const Aabb> boxes) {
  validate_boxes(boxes);
  sap.boxes.assign(boxes.begin(), boxes.end());
  for (int axis = 0; axis < 3; ++axis) fill_axis(sap.axes[axis], boxes, axis);
  const std::size_t before = sap.pairs.count;
  pair_set_clear(sap.pairs);
  sweep_x(sap);
  sap.last = SapStats{};
  sap.last.full_sorts = 1;
  sap.last.pairs_removed = before;
  sap.last.pairs_added = sap.pairs.count;
  sap.total.full_sorts += 1;
  sap.total.pairs_added += sap.last.pairs_added;
  sap.total.pairs_removed += sap.last.pairs_removed;
}

void sap_update(SweepAndPrune& sap, std::span<const Aabb> boxes) {
  if (sap.boxes.empty() || boxes.size() != sap.boxes.size()) {
    sap_rebuild(sap, boxes);
    return;
  }
  validate_boxes(boxes);
  std::copy(boxes.begin(), boxes.end(), sap.boxes.begin());
  sap.last = SapStats{};
  for (int axis = 0; axis < 3; ++axis) {
    std::vector<SapEndpoint>& list = sap.axes[axis];
    for (SapEndpoint& e : list) e.value = end_value(sap.boxes[e.box], e.is_max, axis);
    insertion_sort_axis(sap, list);
  }
  apply_events(sap);
  sap.total.swaps += sap.last.swaps;
  sap.total.pairs_added += sap.last.pairs_added;
  sap.total.pairs_removed += sap.last.pairs_removed;
}

std::vector<BoxPair> sap_pairs(const SweepAndPrune& sap) { return pair_set_sorted(sap.pairs); }

std::size_t sap_pair_count(const SweepAndPrune& sap) { return sap.pairs.count; }

}  // namespace firn::dem

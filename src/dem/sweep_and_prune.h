#pragma once
/// Incremental sweep and prune on axis-aligned boxes (Schinner 1995 §4.1.1-4.1.2 after Baraff [Bar93]; App. B;
/// notes §5.2-5.3, §5.5).
///
/// Three endpoint lists (x, y, z), each kept sorted by (value, min-before-max). The first update, or one with a
/// different number of boxes, sorts fully and sweeps once: O(n log n + k). Later updates re-sort each list by
/// insertion sort, which costs O(n + c) for c adjacent swaps and exploits temporal coherence. Overlap bookkeeping
/// is driven by the swaps (§4.1.1): a pair can only change status when a min of one box crosses a max of the other
/// on some axis. When min_i moves left past max_j the two start to overlap on that axis, and the pair is added if
/// the new boxes overlap on all three axes (an O(1) test, notes §5.3); when max_i moves left past min_j they stop
/// overlapping on that axis and the pair is removed. In insertion sort each pair of endpoints swaps at most once
/// per update, so every status change is seen and the result equals the brute-force overlap set of the new boxes.
/// The O(1) 3-D test replaces per-pair axis counters, which would need memory for every pair overlapping on a
/// single axis (O(N^(5/3)) at fixed density).
///
/// Ties: boxes are closed, touching counts as overlap (see overlaps()), which is why a min sorts before a max at
/// equal value; then "min_i before max_j in the list" is exactly "min_i <= max_j".
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "dem/aabb.h"
#include "dem/sweep_and_prune_pairs.h"

namespace firn::dem {

/// One box end on one axis.
struct SapEndpoint {
  double value = 0.0;        ///< Coordinate of the end [m].
  std::uint32_t box = 0;     ///< Index of the box.
  std::uint32_t is_max = 0;  ///< 0 for the min end, 1 for the max end.
};

/// A min/max exchange seen by insertion sort, applied after the sort (see sweep_and_prune.cpp).
struct SapEvent {
  std::uint32_t a = 0;     ///< Box whose end moved left.
  std::uint32_t b = 0;     ///< Box whose end it passed.
  std::uint32_t stop = 0;  ///< 1: a max passed a min (overlap on this axis ends); 0: a min passed a max.
};

/// Work counters of one update (or summed over all updates).
struct SapStats {
  std::uint64_t swaps = 0;          ///< Adjacent exchanges done by insertion sort, all axes (c of §4.1.1).
  std::uint64_t pairs_added = 0;    ///< Pairs that started to overlap (part of k).
  std::uint64_t pairs_removed = 0;  ///< Pairs that stopped overlapping (part of k).
  std::uint64_t full_sorts = 0;     ///< Updates that did a full sort and sweep instead of insertion sort.
};

/// Plain-data sweep-and-prune state. Start default-constructed; feed boxes with sap_update every step.
struct SweepAndPrune {
  std::vector<Aabb> boxes;                         ///< Boxes of the last update [m].
  std::array<std::vector<SapEndpoint>, 3> axes;    ///< Sorted endpoint lists for x, y, z.
  PairSet pairs;                                   ///< Currently overlapping pairs.
  std::vector<SapEvent> events;                    ///< Scratch: exchanges of the running update.
  SapStats last;                                   ///< Counters of the last update.
  SapStats total;                                  ///< Counters summed over all updates.
};

/// Incremental update to the new boxes (index i is the same body from step to step). The first call, or a call
/// with a different box count, does a full sort and sweep instead. Throws std::runtime_error (naming the box index)
/// if a box is not finite or has min > max on some axis, or if there are 2^32 - 1 or more boxes; the state is left
/// unchanged then.
void sap_update(SweepAndPrune& sap, std::span<const Aabb> boxes);

/// Full re-sort (std::sort per axis) and one sweep with an active list (§4.1.1 "initial full sweep"),
/// O(n log n + k'), where k' counts the pairs overlapping on the x axis. Ignores the previous order; same errors as
/// sap_update. Exposed for benchmarks and as the reference for the incremental path.
void sap_rebuild(SweepAndPrune& sap, std::span<const Aabb> boxes);

/// Overlapping pairs of the last update, each with a < b, sorted ascending.
std::vector<BoxPair> sap_pairs(const SweepAndPrune& sap);

/// Number of overlapping pairs of the last update.
std::size_t sap_pair_count(const SweepAndPrune& sap);

}  // namespace firn::dem

#pragma once
/// Hash set of overlapping box pairs for sweep and prune: replaces the thesis's N x N overlap matrix O_ij
/// (§4.1.1), which needs O(N^2) memory (notes §5.3 [X]). Open addressing with linear probing and backward-shift
/// deletion, so erase leaves no tombstones and iteration stays proportional to the capacity.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dem/aabb.h"

namespace firn::dem {

/// Plain-data pair set. Keys are (a << 32 | b) with a < b; an all-ones slot is empty. Load factor <= 1/2.
struct PairSet {
  std::vector<std::uint64_t> slots;  ///< Capacity is 0 or a power of two.
  std::size_t count = 0;             ///< Number of stored pairs.
};

/// Inserts the pair {a, b} (order irrelevant). Returns true if it was not present. Throws std::runtime_error if
/// a == b.
bool pair_set_insert(PairSet& set, std::uint32_t a, std::uint32_t b);
/// Removes the pair {a, b} (order irrelevant). Returns true if it was present.
bool pair_set_erase(PairSet& set, std::uint32_t a, std::uint32_t b);
/// True if the pair {a, b} (order irrelevant) is present.
bool pair_set_contains(const PairSet& set, std::uint32_t a, std::uint32_t b);
/// Removes all pairs and keeps the capacity.
void pair_set_clear(PairSet& set);
/// All pairs, each with a < b, sorted ascending.
std::vector<BoxPair> pair_set_sorted(const PairSet& set);

/// Calls f(BoxPair) for every stored pair, in no particular order.
template <class F>
void pair_set_for_each(const PairSet& set, F&& f) {
  for (std::uint64_t key : set.slots) {
    if (key != ~std::uint64_t{0}) f(BoxPair{static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(key)});
  }
}

}  // namespace firn::dem

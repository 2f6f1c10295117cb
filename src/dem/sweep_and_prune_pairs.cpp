#include "dem/sweep_and_prune_pairs.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace firn::dem {
namespace {

constexpr std::uint64_t kEmpty = ~std::uint64_t{0};

std::uint64_t make_key(std::uint32_t a, std::uint32_t b) {
  if (a == b) throw std::runtime_error("dem/sweep_and_prune_pairs: a pair needs two different boxes, got " +
                                       std::to_string(a) + " twice");
  if (a > b) std::swap(a, b);
  return (std::uint64_t{a} << 32) | b;
}

/// splitmix64 finaliser: box indices are small consecutive integers, so the raw key would cluster.
std::size_t home_slot(std::uint64_t key, std::size_t mask) {
  key ^= key >> 30;
  key *= 0xbf58476d1ce4e5b9ULL;
  key ^= key >> 27;
  key *= 0x94d049bb133111ebULL;
  key ^= key >> 31;
  return static_cast<std::size_t>(key) & mask;
}

/// Slot holding key, or the empty slot where it would go. Capacity must be > 0.
std::size_t find_slot(const PairSet& set, std::uint64_t key) {
  const std::size_t mask = set.slots.size() - 1;
  std::size_t i = home_slot(key, mask);
  while (set.slots[i] != kEmpty && set.slots[i] != key) i = (i + 1) & mask;
  return i;
}

void grow(PairSet& set) {
  std::vector<std::uint64_t> old = std::move(set.slots);
  set.slots.assign(std::max<std::size_t>(16, old.size() * 2), kEmpty);
  for (std::uint64_t key : old) {
    if (key != kEmpty) set.slots[find_slot(set, key)] = key;
  }
}

}  // namespace

bool pair_set_insert(PairSet& set, std::uint32_t a, std::uint32_t b) {
  const std::uint64_t key = make_key(a, b);
  if (2 * (set.count + 1) > set.slots.size()) grow(set);
  const std::size_t i = find_slot(set, key);
  if (set.slots[i] == key) return false;
  set.slots[i] = key;
  ++set.count;
  return true;
}

bool pair_set_erase(PairSet& set, std::uint32_t a, std::uint32_t b) {
  if (set.count == 0) return false;
  std::size_t i = find_slot(set, make_key(a, b));
  if (set.slots[i] == kEmpty) return false;
  // Backward shift: move later members of the probe run into the hole unless that would put them before their
  // home slot (cyclically), so every remaining key stays reachable from its home without tombstones.
  const std::size_t mask = set.slots.size() - 1;
  for (std::size_t j = (i + 1) & mask; set.slots[j] != kEmpty; j = (j + 1) & mask) {
    const std::size_t home = home_slot(set.slots[j], mask);
    const bool home_in_gap = i <= j ? (i < home && home <= j) : (i < home || home <= j);
    if (home_in_gap) continue;
    set.slots[i] = set.slots[j];
    i = j;
  }
  set.slots[i] = kEmpty;
  --set.count;
  return true;
}

bool pair_set_contains(const PairSet& set, std::uint32_t a, std::uint32_t b) {
  if (set.count == 0) return false;
  const std::uint64_t key = make_key(a, b);
  return set.slots[find_slot(set, key)] == key;
}

void pair_set_clear(PairSet& set) {
  std::fill(set.slots.begin(), set.slots.end(), kEmpty);
  set.count = 0;
}

std::vector<BoxPair> pair_set_sorted(const PairSet& set) {
  std::vector<BoxPair> pairs;
  pairs.reserve(set.count);
  pair_set_for_each(set, [&](const BoxPair& p) { pairs.push_back(p); });
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace firn::dem

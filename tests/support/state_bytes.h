#pragma once
// Byte-level comparisons for the checkpoint tests: a solver's saved state and GPU buffers compared bit for bit.
#include <cstddef>
#include <cstring>
#include <vector>

#include "core/binary_io.h"

namespace firn::test {

/// True when both vectors hold the same number of elements with the same bytes.
template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

/// The bytes that the solver's save_state (found by argument-dependent lookup: mpm::, sph::) writes.
template <class Solver>
std::vector<std::byte> saved_state(const Solver& solver) {
  BinaryWriter out;
  save_state(solver, out);
  return out.bytes();
}

}  // namespace firn::test

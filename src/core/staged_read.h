#pragma once
/// A read-back that came home beside another one (a rigid-body impulse sum copied on the GPU into a status read's
/// staging slot, so that the coupling's read costs no wait of its own), valid only until the solver steps again.
#include <cstdint>
#include <optional>
#include <vector>

namespace firn {

/// Words read at solver step `step` (any step counter), handed out once and only if no step ran since.
class StagedRead {
 public:
  /// Keeps `words`, read when the solver's step counter stood at `step`.
  void keep(std::vector<uint32_t> words, uint64_t step) {
    words_ = std::move(words);
    step_ = step;
  }
  /// Drops what is kept (the layout changed, or the state was restored).
  void forget() { step_.reset(); }
  /// The kept words when they were read at `step` and hold `count` words, else nothing; forgets them either way.
  std::optional<std::vector<uint32_t>> take(uint64_t step, std::size_t count) {
    std::optional<std::vector<uint32_t>> out;
    if (step_ == step && words_.size() == count) out = std::move(words_);
    words_.clear();
    step_.reset();
    return out;
  }

 private:
  std::vector<uint32_t> words_;
  std::optional<uint64_t> step_;
};

}  // namespace firn

#include "viewer/input_queue.h"

#include <cstddef>

namespace firn::viewer {
namespace {

// A repeated state (key auto-repeat arrives as more "down" events) adds no transition, so it is not queued.
void enqueue(std::deque<bool>& q, bool down) {
  if (!q.empty() && q.back() == down) return;
  q.push_back(down);
}

}  // namespace

void InputQueue::key(int code, bool down) {
  if (code >= 0 && code < kKeys) enqueue(keys_[static_cast<std::size_t>(code)], down);
}

void InputQueue::button(int index, bool down) {
  if (index >= 0 && index < kButtons) enqueue(buttons_[static_cast<std::size_t>(index)], down);
}

void InputQueue::apply(bool (&keys_down)[kKeys], bool (&buttons_down)[kButtons]) {
  for (int k = 0; k < kKeys; ++k) {
    std::deque<bool>& q = keys_[static_cast<std::size_t>(k)];
    if (q.empty()) continue;
    keys_down[k] = q.front();
    q.pop_front();
  }
  for (int b = 0; b < kButtons; ++b) {
    std::deque<bool>& q = buttons_[static_cast<std::size_t>(b)];
    if (q.empty()) continue;
    buttons_down[b] = q.front();
    q.pop_front();
  }
}

bool InputQueue::pending() const {
  for (const auto& q : keys_)
    if (!q.empty()) return true;
  for (const auto& q : buttons_)
    if (!q.empty()) return true;
  return false;
}

}  // namespace firn::viewer

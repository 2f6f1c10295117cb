#pragma once
/// Key and mouse-button changes queued from the window system's callbacks and handed to Dear ImGui one change per
/// key per displayed frame ("trickling"). Dear ImGui 1.86 (Debian 12) reads keys as a per-frame state, so a press
/// and release that both arrive between two displayed frames (a quick tap at 1-14 displayed frames per second)
/// would leave no trace; queued, the press shows in one frame and the release in the next, and every
/// ImGui::IsKeyPressed / button click sees it. Plain logic: ImGuiLayer feeds it from GLFW.
#include <array>
#include <deque>

namespace firn::viewer {

/// Per-key and per-button queues of pending down/up states.
class InputQueue {
 public:
  static constexpr int kKeys = 512;    ///< key codes 0..511 (GLFW_KEY_LAST is 348; ImGui 1.86 has 512 KeysDown)
  static constexpr int kButtons = 5;   ///< mouse buttons 0..4 (ImGui 1.86's MouseDown)

  /// A key went down (`down` true) or up; codes outside 0..kKeys-1 are ignored.
  void key(int code, bool down);
  /// A mouse button went down or up; buttons outside 0..kButtons-1 are ignored.
  void button(int index, bool down);

  /// Writes at most one queued state per key into `keys_down` and per button into `buttons_down` (entries with
  /// nothing queued are left as they are). Call once per displayed frame, before ImGui::NewFrame.
  void apply(bool (&keys_down)[kKeys], bool (&buttons_down)[kButtons]);

  /// True when some change is still waiting for a later frame.
  bool pending() const;

 private:
  std::array<std::deque<bool>, kKeys> keys_;
  std::array<std::deque<bool>, kButtons> buttons_;
};

}  // namespace firn::viewer

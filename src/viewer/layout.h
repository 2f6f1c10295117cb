#pragma once
/// Where the viewer puts things in its window (plain logic, no ImGui): one side bar anchored to the right edge that
/// holds every panel, the scene drawn in the free area left of it (so the panels never cover the scene camera's
/// view), and a banner over the top of the scene area for errors that must stay visible. Recomputed every
/// displayed frame from the framebuffer size, so it follows the window when it is resized.
namespace firn::viewer {

/// An axis-aligned rectangle in window pixels, origin at the top left (ImGui's convention).
struct Rect {
  float x = 0, y = 0, width = 0, height = 0;  ///< [pixels]
  float right() const { return x + width; }
  float bottom() const { return y + height; }
  /// True when `o` lies inside this rectangle (edges included).
  bool contains(const Rect& o) const {
    return o.x >= x && o.y >= y && o.right() <= right() && o.bottom() <= bottom();
  }
  /// True when the two rectangles share interior area (touching edges do not count).
  bool overlaps(const Rect& o) const {
    return o.x < right() && x < o.right() && o.y < bottom() && y < o.bottom();
  }
};

/// The three regions of the window.
struct ViewerLayout {
  Rect window;   ///< the whole framebuffer
  Rect scene;    ///< where the 3-D view is drawn (the whole window when the panels are hidden)
  Rect sidebar;  ///< the panels; width 0 when hidden
  Rect banner;   ///< top strip of the scene area for error messages (height 0 when there is none)
};

/// Side bar width [pixels] for a window `width` pixels wide: 30 % of the window, at least 300 pixels (the widest
/// panel row, the collider vectors, needs ~290) and at most 440, and never more than half the window.
float sidebar_width(float width);

/// The layout of a `width` x `height` window [pixels] with the side bar shown or not and a banner of
/// `banner_height` pixels (0: no banner). Non-positive sizes give empty rectangles.
ViewerLayout viewer_layout(float width, float height, bool sidebar_shown, float banner_height);

}  // namespace firn::viewer

#pragma once
/// Headless OpenGL contexts through EGL: the device platform on an NVIDIA driver, Mesa's surfaceless platform
/// (llvmpipe on machines without a GPU) otherwise.
#include <string>
#include <string_view>

#include "gl/loader.h"

namespace firn::gl {

/// Which EGL platform a headless context uses.
enum class EglPlatform {
  kAuto,         ///< device platform if an NVIDIA EGL device is present, else surfaceless
  kDevice,       ///< EGL_EXT_platform_device (NVIDIA's headless path)
  kSurfaceless,  ///< EGL_MESA_platform_surfaceless (Mesa; llvmpipe when there is no GPU)
};

/// Parses "auto", "device" or "surfaceless". Throws firn::InputError naming `what` (the flag or variable) otherwise.
EglPlatform parse_egl_platform(std::string_view text, std::string_view what);

/// The platform chosen by env FIRN_EGL_PLATFORM (auto when unset).
EglPlatform egl_platform_from_env();

/// A current, headless OpenGL 4.3+ core context with its entry points loaded. Move-only; one per thread.
/// Throws std::runtime_error with the EGL step and error code when no context can be made.
class HeadlessContext {
 public:
  explicit HeadlessContext(EglPlatform platform = egl_platform_from_env());
  ~HeadlessContext();
  HeadlessContext(HeadlessContext&& other) noexcept;
  HeadlessContext& operator=(HeadlessContext&&) = delete;
  HeadlessContext(const HeadlessContext&) = delete;
  HeadlessContext& operator=(const HeadlessContext&) = delete;

  /// Vendor, renderer and version strings of this context.
  const ContextInfo& info() const { return info_; }
  /// "device" or "surfaceless": the platform actually used.
  const std::string& platform_name() const { return platform_name_; }

 private:
  void* display_ = nullptr;
  void* context_ = nullptr;
  ContextInfo info_;
  std::string platform_name_;
};

}  // namespace firn::gl

#include "gl/context.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/log.h"
#include "gl/debug.h"

namespace firn::gl {
namespace {

[[noreturn]] void fail(const char* step) {
  char code[16];
  std::snprintf(code, sizeof code, "0x%04X", eglGetError());
  throw std::runtime_error(std::string("EGL: ") + step + " failed (error " + code + ")");
}

template <class Fn>
Fn egl_proc(const char* name) {
  return reinterpret_cast<Fn>(eglGetProcAddress(name));
}

/// The first EGL device whose extensions name NVIDIA's CUDA interop, i.e. a real NVIDIA GPU; null when none.
EGLDeviceEXT find_nvidia_device() {
  auto query_devices = egl_proc<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
  auto query_string = egl_proc<PFNEGLQUERYDEVICESTRINGEXTPROC>("eglQueryDeviceStringEXT");
  if (!query_devices || !query_string) return nullptr;
  EGLint count = 0;
  if (!query_devices(0, nullptr, &count) || count <= 0) return nullptr;
  std::vector<EGLDeviceEXT> devices(static_cast<size_t>(count));
  query_devices(count, devices.data(), &count);
  for (EGLDeviceEXT d : devices) {
    const char* ext = query_string(d, EGL_EXTENSIONS);
    if (ext && std::strstr(ext, "EGL_NV_device_cuda")) return d;
  }
  return nullptr;
}

EGLDisplay open_display(EglPlatform platform, std::string& name) {
  auto get_display = egl_proc<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
  if (!get_display) fail("eglGetProcAddress(eglGetPlatformDisplayEXT)");
  if (platform != EglPlatform::kSurfaceless) {
    if (EGLDeviceEXT dev = find_nvidia_device()) {
      name = "device";
      return get_display(EGL_PLATFORM_DEVICE_EXT, dev, nullptr);
    }
    if (platform == EglPlatform::kDevice) throw std::runtime_error("EGL: no NVIDIA EGL device found");
  }
  name = "surfaceless";
  return get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
}

EGLContext create_context(EGLDisplay dpy) {
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint n = 0;
  if (!eglChooseConfig(dpy, config_attribs, &config, 1, &n) || n == 0) config = nullptr;  // EGL_KHR_no_config_context
  const bool debug = std::getenv("FIRN_GL_DEBUG") != nullptr;
  const EGLint ctx_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 3,
                                EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                EGL_CONTEXT_OPENGL_DEBUG, debug ? EGL_TRUE : EGL_FALSE, EGL_NONE};
  EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ctx_attribs);
  if (ctx == EGL_NO_CONTEXT) fail("eglCreateContext (OpenGL 4.3 core)");
  return ctx;
}

}  // namespace

EglPlatform parse_egl_platform(std::string_view text, std::string_view what) {
  if (text == "auto") return EglPlatform::kAuto;
  if (text == "device") return EglPlatform::kDevice;
  if (text == "surfaceless") return EglPlatform::kSurfaceless;
  throw InputError(std::string(what) + ": '" + std::string(text) +
                   "' is not an EGL platform; allowed: auto, device, surfaceless");
}

EglPlatform egl_platform_from_env() {
  const char* env = std::getenv("FIRN_EGL_PLATFORM");
  return env ? parse_egl_platform(env, "FIRN_EGL_PLATFORM") : EglPlatform::kAuto;
}

HeadlessContext::HeadlessContext(EglPlatform platform) {
  EGLDisplay dpy = open_display(platform, platform_name_);
  if (dpy == EGL_NO_DISPLAY) fail("eglGetPlatformDisplayEXT");
  if (!eglInitialize(dpy, nullptr, nullptr)) fail("eglInitialize");
  display_ = dpy;
  if (!eglBindAPI(EGL_OPENGL_API)) fail("eglBindAPI(EGL_OPENGL_API)");
  EGLContext ctx = create_context(dpy);
  context_ = ctx;
  if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) fail("eglMakeCurrent (surfaceless)");
  load_entry_points(ContextKind::kEgl);
  install_debug_callback();
  info_ = query_context_info();
  log::debug("EGL " + platform_name_ + ": " + info_.renderer + ", " + info_.version);
}

HeadlessContext::HeadlessContext(HeadlessContext&& other) noexcept
    : display_(other.display_), context_(other.context_), info_(std::move(other.info_)),
      platform_name_(std::move(other.platform_name_)) {
  other.display_ = nullptr;
  other.context_ = nullptr;
}

HeadlessContext::~HeadlessContext() {
  if (!display_) return;
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (context_) eglDestroyContext(display_, context_);
  eglTerminate(display_);
}

}  // namespace firn::gl

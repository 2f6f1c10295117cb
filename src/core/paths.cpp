#include "core/paths.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace firn {

std::filesystem::path shader_dir() {
  const char* env = std::getenv("FIRN_SHADER_DIR");
  return env ? std::filesystem::path(env) : std::filesystem::path(FIRN_SHADER_DIR);
}

std::filesystem::path asset_dir() {
  const char* env = std::getenv("FIRN_ASSET_DIR");
  return env ? std::filesystem::path(env) : std::filesystem::path(FIRN_ASSET_DIR);
}

LineAppender::LineAppender(const std::filesystem::path& file, bool keep)
    : file_(file), fd_(::open(file.c_str(), O_WRONLY | O_CREAT | (keep ? 0 : O_TRUNC) | O_APPEND | O_CLOEXEC, 0644)) {
  if (fd_ < 0) throw std::runtime_error(file.string() + ": cannot open for writing: " + std::strerror(errno));
}

LineAppender::~LineAppender() { ::close(fd_); }

void LineAppender::append(std::string_view line) {
  std::string buffer(line);
  buffer += '\n';
  std::size_t done = 0;
  while (done < buffer.size()) {  // a regular file takes it in one write; the loop covers EINTR and short writes
    const ssize_t n = ::write(fd_, buffer.data() + done, buffer.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(file_.string() + ": write failed: " + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace firn

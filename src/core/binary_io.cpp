#include "core/binary_io.h"

#include <cerrno>
#include <fcntl.h>
#include <fstream>
#include <stdexcept>
#include <system_error>
#include <unistd.h>

#include "core/error.h"

namespace firn {
namespace {

[[noreturn]] void io_failure(const std::string& what, const std::filesystem::path& path) {
  throw std::runtime_error(path.string() + ": " + what + " failed: " + std::generic_category().message(errno));
}

/// Closes a POSIX file descriptor on scope exit.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

/// Writes all of `bytes` to `fd` (retrying after signals and short writes); `path` names the file in an error.
void write_all(int fd, std::span<const std::byte> bytes, const std::filesystem::path& path) {
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) io_failure("write", path);
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

std::uint64_t fnv1a64(std::span<const std::byte> bytes, std::uint64_t seed) {
  std::uint64_t h = seed;
  for (std::byte b : bytes) {
    h ^= static_cast<std::uint64_t>(b);
    h *= 1099511628211ull;
  }
  return h;
}

void BinaryWriter::put_section(std::string_view tag, const BinaryWriter& body) {
  if (tag.size() != 4) throw std::invalid_argument("put_section: a tag has 4 characters, not '" + std::string(tag) + "'");
  for (char c : tag) put(c);
  put(static_cast<std::uint64_t>(body.bytes_.size()));
  bytes_.insert(bytes_.end(), body.bytes_.begin(), body.bytes_.end());
}

std::span<const std::byte> BinaryReader::take(std::size_t n) {
  if (n > remaining()) fail("truncated: " + std::to_string(n) + " bytes needed, " + std::to_string(remaining()) + " left");
  const auto s = bytes_.subspan(offset_, n);
  offset_ += n;
  return s;
}

BinaryReader BinaryReader::section(std::string_view tag) {
  std::string got(4, ' ');
  for (char& c : got) c = get<char>();
  if (got != tag) fail("section '" + got + "' where '" + std::string(tag) + "' was expected");
  const auto n = get<std::uint64_t>();
  if (n > remaining()) fail("section '" + got + "' is longer than the file");
  return BinaryReader(take(n), source_ + " (section " + got + ")");
}

void BinaryReader::expect_version(std::uint32_t expected, const std::string& what) {
  if (const auto v = get<std::uint32_t>(); v != expected)
    fail(what + " version " + std::to_string(v) + ", this firn reads version " + std::to_string(expected));
}

void BinaryReader::expect_end() const {
  if (remaining() != 0) fail(std::to_string(remaining()) + " unread bytes at the end");
}

void BinaryReader::fail(const std::string& what) const {
  throw InputError(source_ + ": " + what + " (at byte " + std::to_string(offset_) +
                   "); allowed: a checkpoint written by this version of firn for this scene");
}

void write_file_durably(const std::filesystem::path& file, std::span<const std::byte> bytes) {
  const std::filesystem::path tmp = file.string() + ".tmp";
  {
    Fd out{::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)};
    if (out.fd < 0) io_failure("open", tmp);
    write_all(out.fd, bytes, tmp);
    if (::fsync(out.fd) != 0) io_failure("fsync", tmp);
  }
  if (::rename(tmp.c_str(), file.c_str()) != 0) io_failure("rename to " + file.filename().string(), tmp);
  // The rename is durable only once the folder's entry is on disk.
  const std::filesystem::path dir = file.has_parent_path() ? file.parent_path() : ".";
  Fd folder{::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  if (folder.fd < 0) io_failure("open", dir);
  // Some file systems cannot fsync a folder (EINVAL); the rename is then as durable as they make it.
  if (::fsync(folder.fd) != 0 && errno != EINVAL) io_failure("fsync", dir);
}

void append_file_bytes(const std::filesystem::path& file, std::span<const std::byte> bytes, bool truncate) {
  Fd out{::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (truncate ? O_TRUNC : 0), 0644)};
  if (out.fd < 0) io_failure("open", file);
  write_all(out.fd, bytes, file);
}

std::vector<std::byte> read_file_bytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in) throw InputError(file.string() + ": cannot be read");
  const auto size = static_cast<std::size_t>(in.tellg());
  std::vector<std::byte> bytes(size);
  in.seekg(0);
  if (size > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size)))
    throw InputError(file.string() + ": cannot be read");
  return bytes;
}

}  // namespace firn

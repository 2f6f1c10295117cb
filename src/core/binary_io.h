#pragma once
/// Little-endian binary byte streams for checkpoints (docs/checkpoints.md): a writer that appends plain values and
/// arrays to a byte vector, a reader that reads them back with bounds checks, FNV-1a hashing and a durable
/// (atomic and fsynced) file write. Values are copied as their in-memory bytes, so only types without padding should
/// be written whole (padding bytes are indeterminate and would make two checkpoints of one state differ); structs
/// with padding are written field by field by their owners.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace firn {

static_assert(std::endian::native == std::endian::little, "checkpoints are written in the host's byte order, little-endian");

/// FNV-1a 64-bit hash of `bytes`, continuing from `seed` (the FNV offset basis by default).
std::uint64_t fnv1a64(std::span<const std::byte> bytes, std::uint64_t seed = 1469598103934665603ull);

/// Appends values to a byte vector (the body of a checkpoint section).
class BinaryWriter {
 public:
  /// Appends the bytes of each value in turn (trivially copyable types without padding: integers, doubles, glm
  /// vectors and matrices, std::arrays of them).
  template <class... T>
  void put(const T&... values) {
    (put_one(values), ...);
  }
  /// Appends the element count (uint64) and then the elements' bytes.
  template <class T>
  void put_array(std::span<const T> values) {
    static_assert(std::is_trivially_copyable_v<T>);
    put(static_cast<std::uint64_t>(values.size()));
    const auto* p = reinterpret_cast<const std::byte*>(values.data());
    bytes_.insert(bytes_.end(), p, p + values.size_bytes());
  }
  template <class T>
  void put_array(const std::vector<T>& values) { put_array(std::span<const T>(values)); }
  /// Appends a section: 4-character tag (std::invalid_argument for another length), uint64 length, then the bytes of `body`.
  void put_section(std::string_view tag, const BinaryWriter& body);

  const std::vector<std::byte>& bytes() const { return bytes_; }

 private:
  template <class T>
  void put_one(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const std::byte*>(&value);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
  }

  std::vector<std::byte> bytes_;
};

/// Reads values back from bytes written by BinaryWriter. Every read past the end, and an array longer than the
/// bytes left, throws firn::InputError naming `source` (the checkpoint file) and the byte offset.
class BinaryReader {
 public:
  BinaryReader(std::span<const std::byte> bytes, std::string source) : bytes_(bytes), source_(std::move(source)) {}

  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T value;
    std::memcpy(&value, take(sizeof(T)).data(), sizeof(T));
    return value;
  }
  /// Reads into each of `values` in turn (the counterpart of BinaryWriter::put with the same types).
  template <class... T>
  void read(T&... values) {
    ((values = get<T>()), ...);
  }
  /// An array written by put_array.
  template <class T>
  std::vector<T> get_array() {
    const auto n = get<std::uint64_t>();
    if (n > remaining() / sizeof(T)) fail("an array of " + std::to_string(n) + " elements does not fit");
    std::vector<T> values(n);
    const auto bytes = take(n * sizeof(T));
    if (n > 0) std::memcpy(values.data(), bytes.data(), bytes.size());
    return values;
  }
  /// The body of the next section, which must carry `tag` (a reader over its bytes; this reader moves past it).
  BinaryReader section(std::string_view tag);
  /// Reads a uint32 format version and throws unless it is `expected` (`what`: "snow state", ...).
  void expect_version(std::uint32_t expected, const std::string& what);
  /// Throws unless every byte was read (a section longer than its reader expects was written by another layout).
  void expect_end() const;
  /// Throws firn::InputError "<source>: <what> (at byte <offset>); allowed: a checkpoint written by this firn".
  [[noreturn]] void fail(const std::string& what) const;

  std::size_t remaining() const { return bytes_.size() - offset_; }
  const std::string& source() const { return source_; }

 private:
  std::span<const std::byte> take(std::size_t n);

  std::span<const std::byte> bytes_;
  std::string source_;
  std::size_t offset_ = 0;
};

/// Writes `bytes` to `file` so that a crash or power loss at any moment leaves either the old file or the new one:
/// write to "<file>.tmp", fsync it, rename it over `file`, fsync the folder. Throws std::runtime_error naming the
/// path and the failing call.
void write_file_durably(const std::filesystem::path& file, std::span<const std::byte> bytes);

/// Appends `bytes` to `file` (created if missing; emptied first when `truncate`), without syncing it: the caller
/// decides when it must be on disk. Throws std::runtime_error naming the path and the failing call.
void append_file_bytes(const std::filesystem::path& file, std::span<const std::byte> bytes, bool truncate);

/// The whole content of `file`; throws firn::InputError naming it when it cannot be read.
std::vector<std::byte> read_file_bytes(const std::filesystem::path& file);

}  // namespace firn

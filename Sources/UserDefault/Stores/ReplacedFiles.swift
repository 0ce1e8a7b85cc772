import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Removes, off the writer's path, the second names that replaced preference files keep
/// through their replacement (see ``PreferencesFile/write(_:)``).
///
/// Why: on ext4 a `rename` over a file frees the replaced file inside the call, 80 to
/// 120 µs of a durable write's 500 here. A replaced file that still has another name is
/// not freed by the `rename` (9 µs); removing that name later frees it, on this queue,
/// while the writer has already returned. Removing a name is safe whenever it happens: the
/// name is never read, so a removal that comes early only moves the freeing back into the
/// next `rename`.
enum ReplacedFiles {
  private static let queue = DispatchQueue(label: "UserDefault.ReplacedFiles", qos: .utility)

  /// Removes `path` soon, on a background queue. Cost to the caller: one `async`.
  static func remove(_ path: String) {
    queue.async { _ = unlink(path) }
  }

  /// Waits until every removal asked for so far is done: at exit, so a short-lived
  /// process (a `defaults write`) leaves no second name behind.
  static func finishRemoving() {
    queue.sync {}
  }
}

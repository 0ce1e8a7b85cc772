import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bytes of a file as read, in memory that outlives the read so that the next read
/// can reuse it (see ``Spare``): no zeroed staging buffer, no copy into a `Data`.
///
/// Owned by one reader at a time; not shared while in use.
final class FileBytes {
  private var base: UnsafeMutableRawPointer
  private(set) var capacity: Int
  private(set) var count = 0

  /// Keeps `errno`, which a later `close` may change.
  struct ReadFailure: Error {
    let code: Int32
  }

  init?(capacity: Int) {
    guard let base = malloc(max(capacity, 1)) else { return nil }
    self.base = base
    self.capacity = max(capacity, 1)
  }

  deinit { free(base) }

  /// Reads the rest of `descriptor`, expected to be `size` bytes, with room for one more,
  /// so the read that finds the end needs no `realloc`; a file that grew is read whole.
  func read(from descriptor: Int32, expecting size: Int) throws(ReadFailure) {
    count = 0
    try reserve(max(size, 0) + 1)
    while true {
      if count == capacity { try reserve(capacity * 2) }
      let got = Foundation.read(descriptor, base + count, capacity - count)
      if got < 0 {
        if errno == EINTR { continue }
        throw ReadFailure(code: errno)
      }
      if got == 0 { return }
      count += got
    }
  }

  /// Calls `body` with the bytes read; they are valid only inside it.
  func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    body(UnsafeRawBufferPointer(start: base, count: count))
  }

  private func reserve(_ wanted: Int) throws(ReadFailure) {
    guard wanted > capacity else { return }
    guard let grown = realloc(base, wanted) else { throw ReadFailure(code: ENOMEM) }
    (base, capacity) = (grown, wanted)
  }
}

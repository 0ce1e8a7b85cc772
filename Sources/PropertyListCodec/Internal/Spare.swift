/// One value kept between uses, so that the next use finds memory already in place.
///
/// Reading a file needs a buffer and staging arrays of about its size. Allocated afresh,
/// they are often fresh pages, each a fault on first touch: a large part of a suite's
/// open. A spare is taken by one reader at a time (another at the same moment makes its
/// own) and kept only up to ``largestKeptBytes``. Cost: an uncontended lock a take and keep.
package final class Spare<Value>: Sendable {
  /// The most memory a kept value may hold: a 1,000-key file needs about 110 KB in all.
  package static var largestKeptBytes: Int { 1 << 20 }

  // A taken value is its taker's alone until kept again.
  private let slot = Lock<Value?>(nil)
  private let size: @Sendable (Value) -> Int

  package init(measuredBy size: @escaping @Sendable (Value) -> Int) {
    self.size = size
  }

  /// The kept value, now the caller's; `nil` for a use beyond ``largestKeptBytes``, which
  /// would only grow it past keeping.
  package func take(forBytes bytes: Int) -> Value? {
    guard bytes <= Self.largestKeptBytes else { return nil }
    return slot.withLock { kept in
      defer { kept = nil }
      return kept
    }
  }

  /// Keeps `value` unless it holds more than ``largestKeptBytes``.
  package func keep(_ value: Value) {
    guard size(value) <= Self.largestKeptBytes else { return }
    slot.withLock { $0 = value }
  }
}

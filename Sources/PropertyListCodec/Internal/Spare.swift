/// One value kept between uses, so that the next use finds memory already in place.
///
/// Reading a preferences file needs a buffer for its bytes and staging arrays for the
/// parse, each of about the file's size. Allocated afresh, they are often fresh pages
/// (the allocator returns freed memory at the top of the heap to the system), and each
/// page costs a fault on first touch: 23 of the 48 faults of opening a 1,000-key suite
/// between Foundation's own opens, about a fifth of the open's time. A spare is taken by
/// one reader at a time (``take(forBytes:)`` leaves the slot empty, so another thread at
/// the same moment makes its own) and kept afterwards only when it holds at most
/// ``largestKeptBytes`` bytes (``keep(_:)``): no large file's memory outlives its read. Cost:
/// one uncontended lock per take and keep.
package final class Spare<Value>: Sendable {
  /// The most memory a kept value may hold: a 1,000-key file needs about 110 KB in all.
  package static var largestKeptBytes: Int { 1 << 20 }

  // A taken value is owned by its taker alone until it is kept again: the slot's lock is
  // the only way between threads.
  private let slot = Lock<Value?>(nil)
  private let size: @Sendable (Value) -> Int

  /// A slot that measures the memory a value holds, in bytes, with `size`.
  package init(measuredBy size: @escaping @Sendable (Value) -> Int) {
    self.size = size
  }

  /// The kept value, if any, now owned by the caller, when the use needs about `bytes`
  /// bytes; the slot is then left empty. A use larger than ``largestKeptBytes`` gets `nil` and
  /// leaves the kept value in place: it would only grow it past keeping, copying it.
  package func take(forBytes bytes: Int) -> Value? {
    guard bytes <= Self.largestKeptBytes else { return nil }
    return slot.withLock { kept in
      defer { kept = nil }
      return kept
    }
  }

  /// Keeps `value` for the next ``take(forBytes:)`` if it holds at most ``largestKeptBytes``
  /// bytes; otherwise it is released.
  package func keep(_ value: Value) {
    guard size(value) <= Self.largestKeptBytes else { return }
    slot.withLock { $0 = value }
  }
}

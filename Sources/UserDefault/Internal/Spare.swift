/// One value kept between uses, so that the next use finds memory already in place.
///
/// Reading a preferences file needs a buffer for its bytes and staging arrays for the
/// parse, each of about the file's size. Allocated afresh, they are often fresh pages
/// (the allocator returns freed memory at the top of the heap to the system), and each
/// page costs a fault on first touch: 23 of the 48 faults of opening a 1,000-key suite
/// between Foundation's own opens, about a fifth of the open's time. A spare is taken by
/// one reader at a time (``take()`` leaves the slot empty, so another thread at the same
/// moment makes its own) and kept afterwards only when it is small (``keep(_:)``): no
/// large file's memory outlives its read. Cost: one uncontended lock per take and keep.
final class Spare<Value>: Sendable {
  // A taken value is owned by its taker alone until it is kept again: the slot's lock is
  // the only way between threads.
  private let slot = Lock<Value?>(nil)
  private let isSmall: @Sendable (Value) -> Bool

  /// A slot that keeps only values for which `isSmall` is true.
  init(keepingOnly isSmall: @escaping @Sendable (Value) -> Bool) {
    self.isSmall = isSmall
  }

  /// The kept value, if any, now owned by the caller; the slot is left empty.
  func take() -> Value? {
    slot.withLock { kept in
      defer { kept = nil }
      return kept
    }
  }

  /// Keeps `value` for the next ``take()`` if it is small; otherwise it is released.
  func keep(_ value: Value) {
    guard isSmall(value) else { return }
    slot.withLock { $0 = value }
  }
}

import PropertyListCodec

/// What the library last read from or wrote to a suite whose values Foundation holds, name
/// by name, so that a write of that same value tells the Observation framework nothing.
///
/// Foundation's read of the old value would settle it, but on Linux a read right after a
/// write rebuilds Foundation's merged view of the suite. A reader the framework tracks
/// read through the library, so it was handed the value known here, or a later write
/// differed from what it was handed and told it; a write equal to the known value changes
/// nothing that reader saw. A value is known only when no other write overlapped the read
/// or write that found it: otherwise Foundation's order of the two is not known here, and
/// the next write is told as a change.
///
/// Cost: two uncontended locks and a dictionary update on every read and write.
final class KnownValues: Sendable {
  private struct State: @unchecked Sendable {
    // Only touched inside the lock; the objects are immutable property lists.
    /// `.some(nil)`: known to be absent.
    var values: [String: Any?] = [:]
    /// Moves at each write's start and end, so a read or write can tell that none
    /// overlapped it.
    var generation: UInt64 = 0
    var writesUnderway = 0
  }

  private let state = Lock(State())

  /// Returns what `read` found, and keeps it if no write overlapped the read.
  func reading(_ name: String, _ read: () -> Any?) -> Any? {
    let before = state.withLock { $0.generation }
    let found = read()
    state.withLock { state in
      guard state.generation == before, state.writesUnderway == 0 else { return }
      state.values[name] = .some(found)
    }
    return found
  }

  /// Runs `write`, which gives `name` the value `object` (`nil` removes it).
  ///
  /// - Returns: Whether readers may see a change: `false` only when `object` is the known
  ///   value and no other write overlapped this one.
  func writing(_ name: String, _ object: Any?, _ write: () -> Void) -> Bool {
    let started = state.withLock { state in
      state.writesUnderway += 1
      state.generation += 1
      return state.generation
    }
    write()
    return state.withLock { state in
      state.writesUnderway -= 1
      // Alone, nothing changed the entry since this write began: no read keeps a value
      // while a write is underway.
      let isAlone = state.generation == started && state.writesUnderway == 0
      state.generation += 1
      guard isAlone else {
        state.values[name] = nil
        return true
      }
      guard let known = state.values.updateValue(object, forKey: name) else { return true }
      return !Self.isSame(known, object)
    }
  }

  /// For changes made outside the library: their names' next writes are told as changes.
  func forget(_ names: some Sequence<String>) {
    state.withLock { state in
      for name in names { state.values[name] = nil }
      state.generation += 1
    }
  }

  private static func isSame(_ known: Any?, _ new: Any?) -> Bool {
    guard let known, let new else { return known == nil && new == nil }
    return PropertyListEquality.isEqual(known, new)
  }
}

import Foundation
import PropertyListCodec

/// What readers of a Foundation suite were handed through the library, key by key, so that
/// a write of that value tells the Observation framework nothing.
///
/// Foundation's read of the old value would settle it, but on Linux a read right after a
/// write rebuilds Foundation's merged view of the suite. Every reader the framework tracks
/// read through the library, so what it holds is known here: while all readers of a key
/// not told of a change since were handed one value, a write of that value changes nothing
/// any of them sees, whatever Foundation held before (a plain `set`, another process). Once
/// readers were handed different values, the key's next write is told, and what it wrote
/// is what they are all told to read.
///
/// A key no reader was handed yet has no record and no reader to tell: its writes tell
/// nobody until a first read records what it found. From then on the record holds the
/// object its readers agreed on (the first of equal reads, or the last write), none once
/// they differ.
///
/// Cost: two suite-wide locks, a lookup and a comparison on every read; one lock, a lookup
/// and a comparison on every write. The comparison, under the lock, is linear in the size
/// of an array, dictionary or data value, as the decoded-value cache's is on such a read.
final class SeenValues: Sendable {
  private enum Seen {
    /// Every reader of the key not told of a change since was handed this (`nil`: no value).
    case agreed(Any?)
    /// Readers were handed different values.
    case differing
  }

  private struct State: @unchecked Sendable {
    // Only touched inside the lock; the objects are immutable property lists.
    var keys: [String: Seen] = [:]
    /// Reads between their lookup and its record: a write meanwhile cannot know what they
    /// were handed.
    var readsUnderway = 0
  }

  private let state = Lock(State())

  /// Returns what `lookup` found in Foundation, and records that a reader was handed it.
  /// `firstRead` runs, outside the lock, after the suite's first read of `name`; not
  /// optional, so it stays non-escaping and a read allocates no context for it.
  func read(
    _ name: String, firstRead: () -> Void = {}, _ lookup: () -> Any?
  ) -> Any? {
    state.withLock { $0.readsUnderway += 1 }
    let found = lookup()
    let isFirst = state.withLock { state in
      state.readsUnderway -= 1
      switch state.keys[name] {
      case nil:
        state.keys[name] = .agreed(found)
        return true
      case .agreed(let handed)? where !ChangeHub.Change.isSame(handed, found):
        state.keys[name] = .differing
      case .agreed?, .differing?: break
      }
      return false
    }
    if isFirst { firstRead() }
    return found
  }

  /// Records a write of `object` (`nil`: a removal) that Foundation now holds, for a key
  /// some reader was handed.
  ///
  /// - Returns: Whether readers may see a change: `false` when no reader was handed a
  ///   value of the key yet, or every reader was handed `object`, and no read is underway.
  func wrote(_ name: String, _ object: Any?) -> Bool {
    state.withLock { state in
      // A key no reader was handed keeps no record: nobody can be tracking it, and its
      // first reader records what it finds.
      guard let index = state.keys.index(forKey: name) else { return state.readsUnderway > 0 }
      let before = Self.replace(&state.keys.values[index], with: .agreed(object))
      guard state.readsUnderway == 0 else { return true }
      // Consumed: matching the record in place would copy the object it holds.
      switch consume before {
      case .agreed(let handed): return !ChangeHub.Change.isSame(handed, object)
      case .differing: return true
      }
    }
  }

  /// The record `seen` held, moved out as `new` moves in (no second lookup of the key).
  private static func replace(_ seen: inout Seen, with new: consuming Seen) -> Seen {
    var new = new
    swap(&seen, &new)
    return new
  }
}

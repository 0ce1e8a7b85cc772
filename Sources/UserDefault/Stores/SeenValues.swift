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
/// A read is recorded after its lookup, so a write from another thread may land between
/// the two. It is not told for that reader: the framework starts tracking a reader only
/// once the tracked closure (a view's body) has returned, so no tracker can hear a change
/// during its own read. What the reader found is recorded instead, and differs from the
/// write's value, so the key's next write is told. A key's first read, which such a write
/// found without a record to compare with, looks Foundation up again once it has one.
///
/// Cost: one suite-wide lock, a lookup and a comparison on every read and every write (a
/// key's first read: Foundation's lookup twice). The comparison, under the lock, is linear
/// in the size of an array, dictionary or data value, as the decoded-value cache's is on
/// such a read.
final class SeenValues: Sendable {
  private enum Seen {
    /// Every reader of the key not told of a change since was handed this.
    case agreed(Handed)
    /// Readers were handed different values.
    case differing
  }

  // Only touched inside the lock; the objects are immutable property lists.
  private struct Records: @unchecked Sendable {
    var keys: [String: Seen] = [:]
  }

  private let records = Lock(Records())

  /// Returns what `lookup` found in Foundation, and records that a reader was handed it.
  /// `firstRead` runs, outside the lock, after the suite's first read of `name`; not
  /// optional, so it stays non-escaping and a read allocates no context for it.
  func read(
    _ name: String, firstRead: () -> Void = {}, _ lookup: () -> Any?
  ) -> Any? {
    // Outside the lock: Foundation's lookup may take its own locks and, on Apple
    // platforms, deliver key-value notifications whose observers read through here.
    let found = lookup()
    let isFirst = records.withLock { records in
      switch records.keys[name] {
      case nil:
        records.keys[name] = .agreed(Handed(found))
        return true
      case .agreed(let handed)? where !handed.isSame(as: found):
        records.keys[name] = .differing
      case .agreed?, .differing?: break
      }
      return false
    }
    guard isFirst else { return found }
    firstRead()
    // The key had no record, so a write landing after the lookup told nobody: a
    // listener joining meanwhile (`updates`, `observe`) would keep an old value. Looked
    // up again now that the record exists, the reader is handed that write; readers who
    // recorded meanwhile may hold either value, so the key's next write is told.
    let again = lookup()
    guard !Handed(found).isSame(as: again) else { return found }
    records.withLock { $0.keys[name] = .differing }
    return again
  }

  /// Records a write of `object` (`nil`: a removal) that Foundation now holds, for a key
  /// some reader was handed.
  ///
  /// - Returns: Whether readers may see a change: `false` when no reader was handed a
  ///   value of the key yet, or every reader was handed `object`.
  func wrote(_ name: String, _ object: Any?) -> Bool {
    records.withLock { records in
      // A key no reader was handed keeps no record: nobody can be tracking it, and its
      // first reader records what it finds.
      guard let index = records.keys.index(forKey: name) else { return false }
      let before = Self.replace(&records.keys.values[index], with: .agreed(Handed(object)))
      // Consumed: matching the record in place would copy the object it holds.
      switch consume before {
      case .agreed(let handed): return !handed.isSame(as: object)
      case .differing: return true
      }
    }
  }

  /// An object a reader was handed, as every read compares it: an `Int` or a `String`
  /// (what Foundation on Linux hands for integers and text) held as itself, so that the
  /// comparison neither copies an `Any` nor unwraps one.
  private enum Handed {
    case nothing
    case int(Int)
    case string(String)
    case other(Any)

    init(_ object: Any?) {
      guard let object else {
        self = .nothing
        return
      }
      self = Self.exactly(object) ?? .other(object)
    }

    private static func exactly<Object>(_ object: Object) -> Handed? {
      if let value = ExactTypeCast.exactly(opened: object, as: Int.self) { return .int(value) }
      if let value = ExactTypeCast.exactly(opened: object, as: String.self) {
        return .string(value)
      }
      return nil
    }

    /// ``ChangeHub/Change/isSame(_:_:)`` of the handed object and `object`.
    func isSame(as object: Any?) -> Bool {
      guard let object else {
        if case .nothing = self { return true }
        return false
      }
      return isSame(asOpened: object)
    }

    private func isSame<Object>(asOpened object: Object) -> Bool {
      switch self {
      case .nothing: false
      case .int(let handed): Self.isSame(handed, object)
      case .string(let handed): Self.isSame(handed, object)
      case .other(let handed): PropertyListEquality.isEqual(handed, object)
      }
    }

    /// `==` when `object` is exactly a `Value`, else the property-list comparison. Inlined:
    /// as a call, it made every read of a Foundation instance dearer.
    @inline(__always)
    private static func isSame<Value: Equatable, Object>(_ handed: Value, _ object: Object) -> Bool
    {
      if let found = ExactTypeCast.exactly(opened: object, as: Value.self) {
        return found == handed
      }
      return PropertyListEquality.isEqual(handed, object)
    }
  }

  /// The record `seen` held, moved out as `new` moves in (no second lookup of the key).
  private static func replace(_ seen: inout Seen, with new: consuming Seen) -> Seen {
    var new = new
    swap(&seen, &new)
    return new
  }
}

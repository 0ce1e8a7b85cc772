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
/// object its readers agreed on (the first of equal reads, or the last write of another
/// value), none once they differ.
///
/// A read is recorded after its lookup, so a write from another thread may land between
/// the two. It is not told for that reader: the framework starts tracking a reader only
/// once the tracked closure (a view's body) has returned, so no tracker can hear a change
/// during its own read. What the reader found is recorded instead, and differs from the
/// write's value, so the key's next write is told. A key's first read, which such a write
/// found without a record to compare with, looks Foundation up again once it has one.
///
/// A record is found by the name's ``KeyIdentity/number``, not by hashing the name: every
/// read of a Foundation instance passes here, and a hash table's code beside Foundation's
/// own lookup no longer fitted the processor's instruction cache (the article
/// "Performance", "The record found by number").
///
/// Cost: one suite-wide lock and a comparison on every read and every write (a key's first
/// read: Foundation's lookup twice). Numbers are given per process, so a suite keeps a
/// record for every number up to the largest it read, at most twice that many: 40 bytes
/// each (24 where `Int` is 32 bits), 40 KB for a process that used 1,000 names. The
/// comparison, under the lock, is linear in the size of an array, dictionary or data
/// value, as the decoded-value cache's is on such a read.
final class SeenValues: Sendable {
  /// What every reader of a key not told of a change since was handed: an `Int` or a
  /// `String` (what Foundation on Linux hands for integers and text) held as itself, so
  /// that a read compares them without copying an `Any` or asking the runtime to cast one.
  private struct Record {
    /// What the key's readers hold.
    enum Held: UInt8 {
      /// No reader was handed a value of the key yet.
      case unread
      /// Every reader was handed nothing.
      case nothing
      case int
      case text
      case other
      /// Readers were handed different values.
      case differing
    }

    var held = Held.unread
    var int = 0
    var text = ""
    /// Boxed, so that a record holds no `Any` of its own and is read in place, not copied.
    var other: Other?

    /// Kept in records, which are touched only inside their lock.
    final class Other {
      let object: Any
      init(_ object: Any) { self.object = object }
    }

    /// Whether every reader was handed `object`: the record of an agreement on it. Inlined:
    /// every read of a Foundation instance compares here, under the records' lock.
    @inline(__always)
    func holds(_ object: Any?) -> Bool {
      guard let object else { return held == .nothing }
      return holds(opened: object)
    }

    @inline(__always)
    private func holds<Object>(opened object: Object) -> Bool {
      switch held {
      case .int:
        if let found = ExactTypeCast.exactly(opened: object, as: Int.self) { return found == int }
        return PropertyListEquality.isEqual(int, object)
      case .text:
        if let found = ExactTypeCast.exactly(opened: object, as: String.self) {
          return found == text
        }
        return PropertyListEquality.isEqual(text, object)
      case .other:
        guard let other else { return false }
        return PropertyListEquality.isEqual(other.object, object)
      case .unread, .nothing, .differing: return false
      }
    }

    /// Makes this the record of an agreement on `object`, field by field, letting go only
    /// of what the record holds: a new record would release and set every field.
    mutating func agree(on object: Any?) {
      guard let object else {
        release()
        held = .nothing
        return
      }
      agree(onOpened: object)
    }

    private mutating func agree<Object>(onOpened object: Object) {
      if let value = ExactTypeCast.exactly(opened: object, as: Int.self) {
        release()
        (held, int) = (.int, value)
      } else if let value = ExactTypeCast.exactly(opened: object, as: String.self) {
        if other != nil { other = nil }
        (held, text) = (.text, value)
      } else {
        release()
        (held, other) = (.other, Other(object))
      }
    }

    /// Makes this the record of an agreement on `object`; whether it was not one already.
    /// Opens `object` once: a write of another `Int` to an `Int` key, the common change,
    /// costs one type comparison and sets one field.
    @inline(__always)
    mutating func change(to object: Any?) -> Bool {
      guard let object else {
        if held == .nothing { return false }
        agree(on: nil)
        return true
      }
      return change(toOpened: object)
    }

    @inline(__always)
    private mutating func change<Object>(toOpened object: Object) -> Bool {
      if held == .int, let value = ExactTypeCast.exactly(opened: object, as: Int.self) {
        if value == int { return false }
        int = value
        return true
      }
      if holds(opened: object) { return false }
      agree(onOpened: object)
      return true
    }

    /// Lets go of the text and the box, which only a record of them holds.
    private mutating func release() {
      if held == .text { text = "" }
      if other != nil { other = nil }
    }
  }

  /// Records indexed by ``KeyIdentity/number``, grown to hold the largest number read.
  /// Reached through a pointer: read through an array's subscript, a record was copied on
  /// every read. Owned by the ``SeenValues`` that holds it, which frees it: never copied.
  private struct Records: @unchecked Sendable {
    // Only touched inside the lock; the objects are immutable property lists.
    var base = UnsafeMutablePointer<Record>.allocate(capacity: 0)
    /// Every record up to it is initialised.
    var capacity = 0

    /// The record of `number` (from 0), made on first use.
    mutating func record(_ number: Int) -> UnsafeMutablePointer<Record> {
      if number >= capacity { grow(toHold: number) }
      return base + number
    }

    private mutating func grow(toHold number: Int) {
      let grown = max(number + 1, capacity * 2, 16)
      let new = UnsafeMutablePointer<Record>.allocate(capacity: grown)
      new.moveInitialize(from: base, count: capacity)
      (new + capacity).initialize(repeating: Record(), count: grown - capacity)
      base.deallocate()
      (base, capacity) = (new, grown)
    }
  }

  private let records = Lock(Records())

  deinit {
    records.withLock { records in
      records.base.deinitialize(count: records.capacity)
      records.base.deallocate()
    }
  }

  /// Returns what `lookup` found in Foundation, and records that a reader was handed it.
  /// `firstRead` runs, outside the lock, after the suite's first read of the key; not
  /// optional, so it stays non-escaping and a read allocates no context for it.
  @inline(__always)
  func read(
    _ number: Int, firstRead: () -> Void = {}, _ lookup: () -> Any?
  ) -> Any? {
    // Outside the lock: Foundation's lookup may take its own locks and, on Apple
    // platforms, deliver key-value notifications whose observers read through here.
    let found = lookup()
    guard isFirstRead(found, of: number) else { return found }
    firstRead()
    // The key had no record, so a write landing after the lookup told nobody: a
    // listener joining meanwhile (`updates`, `observe`) would keep an old value. Looked
    // up again now that the record exists, the reader is handed that write; readers who
    // recorded meanwhile may hold either value, so the key's next write is told.
    let again = lookup()
    guard !ChangeHub.Change.isSame(found, again) else { return found }
    records.withLock { $0.record(number).pointee = Record(held: .differing) }
    return again
  }

  /// Records that a reader was handed `found`; whether no reader of the key was before.
  /// Inlined into the read: as a call, every read of a Foundation instance paid it.
  @inline(__always)
  private func isFirstRead(_ found: Any?, of number: Int) -> Bool {
    records.withLock { records in
      let record = records.record(number)
      switch record.pointee.held {
      case .unread:
        record.pointee.agree(on: found)
        return true
      case .differing: return false
      case .nothing, .int, .text, .other:
        if !record.pointee.holds(found) { record.pointee = Record(held: .differing) }
        return false
      }
    }
  }

  /// Records a write of `object` (`nil`: a removal) that Foundation now holds, for a key
  /// some reader was handed.
  ///
  /// - Returns: Whether readers may see a change: `false` when no reader was handed a
  ///   value of the key yet, or every reader was handed `object`.
  func wrote(_ number: Int, _ object: Any?) -> Bool {
    records.withLock { records in
      // A key no reader was handed keeps no record: nobody can be tracking it, and its
      // first reader records what it finds.
      guard number < records.capacity else { return false }
      let record = records.base + number
      switch record.pointee.held {
      case .unread: return false
      case .differing:
        record.pointee.agree(on: object)
        return true
      case .nothing, .int, .text, .other: return record.pointee.change(to: object)
      }
    }
  }
}

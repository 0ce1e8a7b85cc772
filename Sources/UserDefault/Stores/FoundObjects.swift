import PropertyListCodec

/// What a store's reads by ``KeyIdentity/number`` last found, each with the version of the
/// store's domains it was found in, so that the next read of the key indexes an array
/// instead of hashing its name.
///
/// Hashing the name was most of a typed read of a store beyond its lock, and its cost
/// moved with the process's hash seed, which places the name in the table (the article
/// "Performance", "A store's read found by number").
///
/// The version is the owner's to keep: any change to what a read looks in (the suite's own
/// values, the lower domains, the registered defaults) must give a version never given
/// before. A found object is handed out for the version it was found in, and carried over
/// a write the owner reports as one key's (``wrote(_:before:after:)``) to the other keys.
/// A write by name (`set(_:forKey:)`), which has no number at hand, and any other change (a
/// file read again, a default registered) make every key's next read look its name up.
///
/// Cost in memory: 48 bytes a number up to the largest read (fewer where `Int` is 32 bits),
/// and each slot keeps the object it found (a copy of a stored value, shared where the value
/// is a class or a large string) until the key is read again after a change, or written
/// through a typed key.
struct FoundObjects {
  private struct Slot {
    /// 0, never a version, until a read fills it.
    var version: UInt64 = 0
    var object: StoredObject?
  }

  /// Indexed by ``KeyIdentity/number``, grown to the largest number kept.
  private var slots: [Slot] = []
  /// The last change, when it was one key's write: what reads of every other key found
  /// in `before` holds in `after`, so that writing one key and reading others (a view
  /// reading its settings after a toggle) does not look them all up again.
  private var lastWrite: (number: Int, before: UInt64, after: UInt64)?

  /// What a read of `number` found in `version`: `.some(nil)` when it found nothing,
  /// `nil` when no read of it since that version of the domains.
  ///
  /// - Parameters:
  ///   - number: The name's ``KeyIdentity/number``.
  ///   - version: The domains' version now; never 0.
  /// - Returns: The object found, if a read found it in `version`, or in the version
  ///   before a write of another key that led to `version`. Cost: an index and a
  ///   comparison, a retain for a string or an object of other type.
  @inline(__always)
  mutating func object(_ number: Int, version: UInt64) -> StoredObject?? {
    guard number < slots.count else { return nil }
    if slots[number].version == version { return .some(slots[number].object) }
    guard let lastWrite, lastWrite.after == version, lastWrite.before == slots[number].version,
      lastWrite.number != number
    else { return nil }
    slots[number].version = version
    return .some(slots[number].object)
  }

  /// Keeps what a read of `number` found in `version`. Cost: an array store; the first
  /// read of a number past those kept grows the array to it.
  mutating func keep(_ object: StoredObject?, _ number: Int, version: UInt64) {
    if number >= slots.count {
      slots.append(contentsOf: repeatElement(Slot(), count: number + 1 - slots.count))
    }
    slots[number] = Slot(version: version, object: object)
  }

  /// Records that the domains went from version `before` to `after` by a write of
  /// `number` and nothing else: what reads of other numbers found in `before` still holds.
  /// Lets go of what a read of `number` found, which would otherwise stay until the key is
  /// read again.
  mutating func wrote(_ number: Int, before: UInt64, after: UInt64) {
    if number < slots.count, slots[number].version != 0 { slots[number] = Slot() }
    lastWrite = (number, before, after)
  }
}

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
/// What it keeps, and so what a slot can hold on to after the value is gone (a write by
/// name or a file read again leaves slots until their key's next read): `Int`, `Double`
/// and `Bool` values, and text of at most ``longestText`` bytes. Other objects (data,
/// arrays, dictionaries, dates) are looked up by name on every read, as before.
///
/// Cost in memory: 48 bytes a number up to the largest kept (fewer where `Int` is 32
/// bits), that number being at most eight times the count of numbers kept, or below
/// ``numbersAlwaysKept``: a process with many names (`"row.\(id)"`) does not make each
/// store hold a slot for each of them.
struct FoundObjects {
  private struct Slot {
    /// 0, never a version, until a read fills it.
    var version: UInt64 = 0
    var object: StoredObject?
    /// Whether a read ever filled it, so that ``keptNumbers`` counts each number once.
    var wasKept = false
  }

  /// Text longer than this is looked up by name on every read: a slot keeps no long text
  /// alive after its value is gone.
  static let longestText = 256
  /// Numbers below this are kept whatever the count of numbers kept: 48 KB at most.
  static let numbersAlwaysKept = 1_024

  /// Indexed by ``KeyIdentity/number``, grown to the largest number kept.
  private var slots: [Slot] = []
  /// How many numbers a read filled, each counted once: what bounds the slots' growth.
  private var keptNumbers = 0
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
  ///   comparison, and a retain for a string (the only kind kept that holds one).
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

  /// Keeps what a read of `number` found in `version`, unless it is an object of another
  /// kind than those kept, or `number` is past what the count of numbers kept allows.
  /// Cost: an array store; the first read of a number past those kept grows the array to
  /// it.
  mutating func keep(_ object: StoredObject?, _ number: Int, version: UInt64) {
    switch object {
    case .int, .double, .bool, nil: break
    case .string(let text) where text.utf8.count <= Self.longestText: break
    case .string, .other: return
    }
    if number >= slots.count {
      guard number < max(Self.numbersAlwaysKept, 8 * keptNumbers) else { return }
      slots.append(contentsOf: repeatElement(Slot(), count: number + 1 - slots.count))
    }
    if !slots[number].wasKept { keptNumbers += 1 }
    slots[number] = Slot(version: version, object: object, wasKept: true)
  }

  /// Records that the domains went from version `before` to `after` by a write of
  /// `number` and nothing else: what reads of other numbers found in `before` still holds.
  /// Lets go of what a read of `number` found, which would otherwise stay until the key is
  /// read again.
  mutating func wrote(_ number: Int, before: UInt64, after: UInt64) {
    if number < slots.count, slots[number].version != 0 {
      slots[number] = Slot(wasKept: true)
    }
    lastWrite = (number, before, after)
  }
}

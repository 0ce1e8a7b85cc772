import Foundation
import PropertyListCodec

/// A suite's values by name, as its store holds them: a dictionary, or, straight after a
/// binary file was read, a ``PropertyListBinaryIndex`` of it that becomes the dictionary at
/// the first use a lookup cannot serve.
///
/// Lookups are answered by the index; anything else (a write, a removal, a listing) first
/// makes the dictionary, once. So a cold open followed by reads does not pay for the
/// dictionary, and the first write pays what the open used to (about 800 instructions a
/// key: the keys' `String`s and the inserts).
struct StoredValues {
  /// The file as read, while the dictionary is not made yet.
  private var index: PropertyListBinaryIndex?
  /// The dictionary; empty while the values are ``isIndexed``.
  private var table: [String: StoredObject]

  init(_ values: [String: StoredObject] = [:]) {
    table = values
    index = nil
  }

  init(_ index: PropertyListBinaryIndex) {
    table = [:]
    self.index = index
  }

  var isEmpty: Bool { table.isEmpty && (index?.count ?? 0) == 0 }

  /// Whether the values are still the index of a file (lookups go to
  /// ``indexedObject(forKey:)``).
  var isIndexed: Bool { index != nil }

  /// The value stored under `name`, wherever the values are.
  func object(forKey name: String) -> StoredObject? {
    isIndexed ? indexedObject(forKey: name) : table[name]
  }

  /// The value stored under `name` in the dictionary, for a reader that found the values
  /// not ``isIndexed``: the store's read, which tests that first and then takes this, the
  /// dictionary's own lookup (through ``object(forKey:)``, a store's read of an absent key
  /// with no file cost 467 instructions instead of 381; callgrind).
  @inline(__always)
  func dictionaryObject(forKey name: String) -> StoredObject? { table[name] }

  /// The value stored under `name`, from the index.
  func indexedObject(forKey name: String) -> StoredObject? {
    switch index?.lookup(name) {
    case .found(let object): return object
    case .absent, nil: return nil
    case .unknown:
      // Every key is ASCII, which canonical composition leaves as it is: `name` equals a
      // key exactly when its composed form has that key's bytes (U+212A KELVIN SIGN
      // composes to "K"). A form that is still not ASCII equals no key.
      guard case .found(let object) = index?.lookup(name.precomposedStringWithCanonicalMapping)
      else { return nil }
      return object
    }
  }

  /// Whether these are indexed values and `other` is the same index, not changed since.
  func isSameIndex(as other: StoredValues) -> Bool {
    guard let index, let otherIndex = other.index else { return false }
    return index.isSame(as: otherIndex)
  }

  /// Every value, as a dictionary (made now if it was not).
  mutating func dictionary() -> [String: StoredObject] {
    makeDictionary()
    return table
  }

  /// The names of the stored values.
  mutating func names() -> Dictionary<String, StoredObject>.Keys {
    makeDictionary()
    return table.keys
  }

  /// Runs `body` on the dictionary (made now if it was not), which it may change.
  mutating func withDictionary<Result>(_ body: (inout [String: StoredObject]) -> Result) -> Result {
    makeDictionary()
    return body(&table)
  }

  /// Stores `object` under `name`; returns what it replaced.
  mutating func updateValue(_ object: consuming StoredObject, forKey name: String)
    -> StoredObject?
  {
    makeDictionary()
    return table.updateValue(object, forKey: name)
  }

  /// Removes the value under `name`; returns it.
  mutating func removeValue(forKey name: String) -> StoredObject? {
    makeDictionary()
    return table.removeValue(forKey: name)
  }

  private mutating func makeDictionary() {
    guard let pending = index else { return }
    index = nil
    table = pending.dictionary()
  }
}

import Foundation
import PropertyListCodec

/// A suite's values by name: a dictionary, or, after a store's first read of its file, a
/// ``PropertyListIndex`` of it until a use a lookup cannot serve (a write, a listing)
/// makes the dictionary. A cold open followed by reads never pays for it.
struct StoredValues {
  private var index: PropertyListIndex?
  /// Empty while the values are ``isIndexed``.
  private var table: [String: StoredObject]

  init(_ values: [String: StoredObject] = [:]) {
    table = values
    index = nil
  }

  init(_ index: PropertyListIndex) {
    table = [:]
    self.index = index
  }

  var isEmpty: Bool { table.isEmpty && (index?.count ?? 0) == 0 }

  var isIndexed: Bool { index != nil }

  func object(forKey name: String) -> StoredObject? {
    isIndexed ? indexedObject(forKey: name) : table[name]
  }

  /// The dictionary's lookup, for the store's read, which tests ``isIndexed`` itself:
  /// through ``object(forKey:)`` the read was measurably slower.
  @inline(__always)
  func dictionaryObject(forKey name: String) -> StoredObject? { table[name] }

  func indexedObject(forKey name: String) -> StoredObject? {
    switch index?.lookup(name) {
    case .found(let object): return object
    case .absent, nil: return nil
    case .unknown:
      // Keys are ASCII, which composition leaves as is: `name` equals a key exactly when
      // its composed form has its bytes (U+212A KELVIN SIGN composes to "K").
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

  /// The dictionary, if it was made: unlike ``dictionary()``, not a change of the values,
  /// so reads that found them keep what they found.
  var madeDictionary: [String: StoredObject]? { isIndexed ? nil : table }

  mutating func dictionary() -> [String: StoredObject] {
    makeDictionary()
    return table
  }

  /// Runs `body` on the dictionary (made now if it was not), which it may change.
  mutating func withDictionary<Result>(_ body: (inout [String: StoredObject]) -> Result) -> Result {
    makeDictionary()
    return body(&table)
  }

  mutating func updateValue(_ object: consuming StoredObject, forKey name: String)
    -> StoredObject?
  {
    makeDictionary()
    return table.updateValue(object, forKey: name)
  }

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

import Foundation

/// Decoded values of one suite, so that an unchanged stored value is not decoded twice.
///
/// Each entry keeps the stored object it was decoded from, the bridge that decoded it and
/// the value (or the error, so an unreadable value is reported once, not on every read).
/// A read checks the entry against the object the store holds now: identical or equal
/// means the decoded value is still right; anything else decodes again. Comparing costs
/// far less than decoding (a string or data compare against a JSON parse). On the
/// library's own stores, which see every write, the entry is trusted without the compare.
///
/// Memory: at most one entry per key ever read through the library: the decoded value,
/// next to a reference to the stored object (the store's own copy, not a second one).
/// Entries go when the key is written or removed through the library.
@usableFromInline
final class DecodedValueCache: Sendable {
  /// One cached outcome. Immutable; `@unchecked` because the object is an `Any` (an
  /// immutable property-list value) and the decoded value may not be Sendable: entries
  /// are only created by the reader that decoded them and then only read.
  @usableFromInline
  class Entry: @unchecked Sendable {
    let object: Any
    let token: ObjectIdentifier

    init(object: Any, token: ObjectIdentifier) {
      self.object = object
      self.token = token
    }
  }

  /// A value decoded by the bridge `token`; typed so a hit costs a class cast, not an
  /// existential unboxing.
  @usableFromInline
  final class Decoded<Value>: Entry, @unchecked Sendable {
    @usableFromInline let value: Value

    init(value: Value, object: Any, token: ObjectIdentifier) {
      self.value = value
      super.init(object: object, token: token)
    }
  }

  /// A stored object the bridge could not decode (already reported).
  final class Undecodable: Entry, @unchecked Sendable {}

  private let entries = Lock<[String: Entry]>([:])

  /// The cached entry for `name` when it was decoded from an object equal to `object` by
  /// the bridge `token`: a ``Decoded`` of the bridge's value type, or ``Undecodable``.
  /// With `object == nil` the entry is trusted as it is (for stores that invalidate on
  /// every write). Not generic, so the read path pays no generic-enum copies.
  func lookup(_ name: String, token: BridgeToken, object: Any?) -> Entry? {
    guard let entry = entries.withLock({ $0[name] }), entry.token == ObjectIdentifier(token)
    else { return nil }
    if let object, !PropertyListEquality.isEqual(entry.object, object) { return nil }
    return entry
  }

  func store<Value>(
    _ name: String, token: BridgeToken, object: Any, result: Result<Value, DefaultsError>
  ) {
    let entry: Entry
    switch result {
    case .success(let value):
      entry = Decoded(value: value, object: object, token: ObjectIdentifier(token))
    case .failure:
      entry = Undecodable(object: object, token: ObjectIdentifier(token))
    }
    entries.withLock { $0[name] = entry }
  }

  func invalidate(_ name: String) {
    _ = entries.withLock { $0.removeValue(forKey: name) }
  }

  func invalidateAll() {
    entries.withLock { $0.removeAll() }
  }
}

import Foundation
import Synchronization

/// Decoded values of one suite, so that an unchanged stored value is not decoded twice.
///
/// Each entry keeps the stored object it was decoded from, the bridge that decoded it and
/// the result (or the error, so an unreadable value is reported once, not on every read).
/// A read checks the entry against the object the store holds now: identical or equal
/// means the decoded value is still right; anything else decodes again. Comparing costs
/// far less than decoding (a string or data compare against a JSON parse).
///
/// Memory: at most one decoded value per key ever read through the library, next to a
/// reference to the stored object (the store's own copy, not a second one). Entries go
/// when the key is written or removed through the library.
final class DecodedValueCache: Sendable {
  struct Entry {
    let object: Any
    let token: ObjectIdentifier
    let result: Result<Any, DefaultsError>
  }

  // `Any` is not Sendable, so the dictionary lives behind this lock and entries are
  // handed out only as copies of immutable property-list objects and decoded values.
  private let entries = Lock<[String: SendableEntry]>([:])

  private struct SendableEntry: @unchecked Sendable {
    // Immutable after creation and only reached through `entries`' lock or as a copy;
    // the objects are property-list values or values the caller decoded.
    let entry: Entry
  }

  /// The cached result for `name` when it was decoded from an object equal to `object`
  /// by the bridge `token`. With `object == nil` the entry is trusted as it is (for stores
  /// that invalidate on every write).
  func lookup(_ name: String, token: BridgeToken, object: Any?) -> Result<Any, DefaultsError>? {
    guard let entry = entries.withLock({ $0[name] })?.entry,
      entry.token == ObjectIdentifier(token)
    else { return nil }
    if let object, !PropertyListEquality.isEqual(entry.object, object) { return nil }
    return entry.result
  }

  func store(_ name: String, token: BridgeToken, object: Any, result: Result<Any, DefaultsError>) {
    let entry = SendableEntry(
      entry: Entry(object: object, token: ObjectIdentifier(token), result: result))
    entries.withLock { $0[name] = entry }
  }

  func invalidate(_ name: String) {
    _ = entries.withLock { $0.removeValue(forKey: name) }
  }

  func invalidateAll() {
    entries.withLock { $0.removeAll() }
  }
}

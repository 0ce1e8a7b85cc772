import Foundation
import PropertyListCodec

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

  private struct State {
    var entries: [String: Entry] = [:]
    /// Counts invalidations, so a reader that read a stored object before a write does
    /// not cache what it decoded from it after the write (its entry would be trusted).
    var generation: UInt64 = 0
  }
  private let state = Lock(State())

  /// The cached entry for `name` when it was decoded from an object equal to `object` by
  /// the bridge `token`: a ``Decoded`` of the bridge's value type, or ``Undecodable``.
  /// Not generic, so the read path pays no generic-enum copies.
  func lookup(_ name: String, token: BridgeToken, object: Any) -> Entry? {
    guard let entry = state.withLock({ $0.entries[name] }), entry.token == ObjectIdentifier(token)
    else { return nil }
    return PropertyListEquality.isEqual(entry.object, object) ? entry : nil
  }

  /// The cached entry for `name` decoded by the bridge `token`, trusted as it is (for
  /// stores that invalidate on every write), and the generation to pass to
  /// ``store(_:token:object:result:ifUnchangedSince:)`` after a miss. One lock.
  func trustedLookup(_ name: String, token: BridgeToken) -> (Entry?, generation: UInt64) {
    let (entry, generation) = state.withLock { ($0.entries[name], $0.generation) }
    guard let entry, entry.token == ObjectIdentifier(token) else { return (nil, generation) }
    return (entry, generation)
  }

  /// Caches the outcome of decoding `object`; with a `generation`, only when nothing was
  /// invalidated since it was taken.
  func store<Value>(
    _ name: String, token: BridgeToken, object: Any, result: Result<Value, DefaultsError>,
    ifUnchangedSince generation: UInt64?
  ) {
    let entry: Entry
    switch result {
    case .success(let value):
      entry = Decoded(value: value, object: object, token: ObjectIdentifier(token))
    case .failure:
      entry = Undecodable(object: object, token: ObjectIdentifier(token))
    }
    state.withLock { state in
      if let generation, generation != state.generation { return }
      state.entries[name] = entry
    }
  }

  func invalidate(_ name: String) {
    state.withLock { state in
      state.generation &+= 1
      state.entries[name] = nil
    }
  }

  func invalidateAll() {
    state.withLock { state in
      state.generation &+= 1
      state.entries.removeAll()
    }
  }
}

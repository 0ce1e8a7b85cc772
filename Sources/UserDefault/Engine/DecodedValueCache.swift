import Foundation
import PropertyListCodec

/// Decoded values of one suite, so that an unchanged stored value is not decoded twice.
///
/// Each entry keeps the stored object, the bridge and the value (or the error, reported
/// once). A read compares the entry's object with the store's, far cheaper than a decode;
/// the library's own stores, which see every write, trust the entry without comparing.
///
/// Memory: one entry per key read, sharing the store's object. In a suite that sees every
/// write, a write removes it; elsewhere a write removes only the record of a failure (so a
/// value written again is reported again), and a decoded entry stays until a read decodes
/// another object.
@usableFromInline
final class DecodedValueCache: Sendable {
  /// Immutable; `@unchecked` as the object is an `Any` and the value may not be Sendable:
  /// only read after its reader made it.
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

  final class Undecodable: Entry, @unchecked Sendable {}

  private struct State {
    var entries: [String: Entry] = [:]
    /// Counts invalidations, so a decode of an object read before a write is not cached.
    var generation: UInt64 = 0
    /// How many entries record a failure: while none, ``forgetFailure(_:)`` hashes
    /// nothing. Changed only in place: a whole `State` assigned would not run the `didSet`
    /// that keeps the mirror.
    var failures = 0 {
      didSet { failureMirror.set(failures) }
    }
    let failureMirror: MirroredCount

    /// Sets `name`'s entry (`nil` removes), keeping ``failures`` counted.
    mutating func set(_ name: String, _ entry: Entry?) {
      let old: Entry?
      if let entry {
        old = entries.updateValue(entry, forKey: name)
      } else {
        old = entries.removeValue(forKey: name)
      }
      // One change, not two: between a `-= 1` and a `+= 1` the mirror would read zero.
      let change = (entry is Undecodable ? 1 : 0) - (old is Undecodable ? 1 : 0)
      if change != 0 { failures += change }
    }
  }
  /// ``State/failures``, readable without the lock: on Linux a write while no entry
  /// records a failure, almost always the case, takes no lock here.
  private let failureMirror = MirroredCount()
  private let state: Lock<State>

  init() {
    state = Lock(State(failureMirror: failureMirror))
  }

  /// The entry for `name` if decoded from an object equal to `object` by `token`. Not
  /// generic, so the read path pays no generic-enum copies.
  func lookup(_ name: String, token: BridgeToken, object: Any) -> Entry? {
    guard let entry = state.withLock({ $0.entries[name] }), entry.token == ObjectIdentifier(token)
    else { return nil }
    return PropertyListEquality.isEqual(entry.object, object) ? entry : nil
  }

  /// The entry for `name`, trusted, and the generation to store a miss with. One lock.
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
      state.set(name, entry)
    }
  }

  func invalidate(_ name: String) {
    state.withLock { state in
      state.generation &+= 1
      // An empty table (no value that needs the cache was read) costs no hash of the name.
      if !state.entries.isEmpty { state.set(name, nil) }
    }
  }

  /// Drops `name`'s entry if it records a value that could not be read, so that the value,
  /// stored again, is reported again; a decoded entry stays, as reads compare its object.
  /// What a write to a suite that does not see every write calls. Cost: while no entry
  /// records a failure, an atomic load on Linux and a lock on Apple platforms; else a lock
  /// and a lookup.
  func forgetFailure(_ name: String) {
    guard failureMirror.mayBeNonzero else { return }
    state.withLock { state in
      guard state.failures > 0, state.entries[name] is Undecodable else { return }
      state.set(name, nil)
    }
  }

  func invalidateAll() {
    state.withLock { state in
      state.generation &+= 1
      state.entries.removeAll()
      state.failures = 0
    }
  }
}

import Foundation
import PropertyListCodec

/// The one coding path from every surface of the library to a suite's backend.
///
/// Reads go: (library store) decoded-value cache, else stored object → cache check →
/// decode. Writes go: encode → refuse, or hand the object to the backend (which compares,
/// stores, tells observers and schedules saving). Nothing else in the library decodes or
/// encodes a typed value.
@usableFromInline
struct DefaultsAccess: Sendable {
  let backend: any StoreBackend

  init(backend: any StoreBackend) {
    self.backend = backend
  }

  /// The suite's shared state. Looked up when needed rather than kept: every read makes a
  /// `DefaultsAccess`, and a second stored reference is a retain and a release per read.
  var suite: SuiteContext { backend.context }

  // MARK: Reading

  /// What the cache knows about a name, found without generic code (the read path is
  /// inlined into callers and specialised there; only the last step is per type).
  @usableFromInline
  enum CacheProbe {
    /// A decoded value or an undecodable object, still matching the store.
    case hit(DecodedValueCache.Entry)
    /// Nothing stored.
    case absent
    /// A stored object the cache does not hold (yet), and the cache's generation seen
    /// before the object was read, when the cache trusts its entries without comparing
    /// them (see ``DecodedValueCache/store(_:token:object:result:ifUnchangedSince:)``).
    case miss(Any, generation: UInt64?)
  }

  /// The stored value of a key whose decode is not cheap, through the decoded-value
  /// cache, or `nil` when nothing is stored or the stored value cannot be read (reported
  /// once per stored value, left as it is). Surfaces read through
  /// ``Foundation/UserDefaults/read(_:)``, which comes here for these keys only.
  @inlinable
  func readThroughCache<Value>(_ key: KeyDescriptor<Value>) -> Value? {
    switch probe(key.name, key.trackingPath, key.bridge.token) {
    case .hit(let entry): return (entry as? DecodedValueCache.Decoded<Value>)?.value
    case .absent: return nil
    case .miss(let object, let generation):
      // A cast, specialised here, where the stored object is the value itself.
      if key.bridge.storesValueItself,
        let value = ExactTypeCast.value(of: object, as: Value.self)
      {
        return value
      }
      return decode(object, key, generation: generation)
    }
  }

  /// What the cache knows about a value whose decode is not cheap (the cheap ones are read
  /// without the cache).
  @usableFromInline
  func probe(_ name: String, _ path: TrackedKeys.Path, _ token: BridgeToken) -> CacheProbe {
    let suite = self.suite
    suite.hub.tracking.access(path)
    if suite.seesEveryWrite {
      let (entry, generation) = suite.cache.trustedLookup(name, token: token)
      if let entry { return .hit(entry) }
      guard let object = backend.object(forKey: name) else { return .absent }
      return .miss(object, generation: generation)
    }
    guard let object = backend.object(forKey: name) else { return .absent }
    if let entry = suite.cache.lookup(name, token: token, object: object) { return .hit(entry) }
    return .miss(object, generation: nil)
  }

  /// Decodes a stored object the cache does not hold, and caches the outcome (a cheap
  /// success is not cached; a failure always is, so that it is reported once per stored
  /// value, not on every read). `generation` is the cache's generation seen before
  /// `object` was read: the outcome is cached only if no write came in since.
  @usableFromInline
  func decode<Value>(_ object: Any, _ key: KeyDescriptor<Value>, generation: UInt64?) -> Value? {
    let token = key.bridge.token
    let value: Value
    do {
      value = try key.bridge.decode(object)
    } catch {
      if let argument = argumentReading(object, key, failure: error) { return argument }
      if let known = suite.cache.lookup(key.name, token: token, object: object),
        known is DecodedValueCache.Undecodable
      {
        return nil
      }
      DefaultsDiagnostics.report(
        error.kind, key: key.name, suite: suite.name,
        "\(error.message); \(fallbackMessage(object, key, then: "reading the default instead"))")
      suite.cache.store(
        key.name, token: token, object: object, result: Result<Value, _>.failure(error),
        ifUnchangedSince: generation)
      return nil
    }
    if !key.bridge.decodesCheaply {
      suite.cache.store(
        key.name, token: token, object: object, result: .success(value),
        ifUnchangedSince: generation)
    }
    return value
  }

  /// `object` read the way `integer(forKey:)` reads a string, when it is the text of a
  /// launch argument (`-count 5`) that did not decode as it is: the first of its
  /// ``ArgumentText/readings(of:)`` that decodes; `nil` otherwise. Not cached: an argument
  /// never changes, and converting its text costs less than the cache's bookkeeping.
  @usableFromInline
  func argumentReading<Value>(
    _ object: Any, _ key: KeyDescriptor<Value>, failure: DefaultsError
  ) -> Value? {
    guard failure.kind == .wrongType, let text = object as? String,
      case .string(let argument)? = backend.launchArgument(forKey: key.name), argument == text
    else { return nil }
    if let date = ArgumentText.date(from: text), let value = try? key.bridge.decode(date) {
      return value
    }
    // A key that takes dates reads no number: `-lastRun 1704067200` is not a date.
    if (try? key.bridge.decode(ArgumentText.sampleDate)) != nil { return nil }
    for reading in ArgumentText.readings(of: text) {
      if let value = try? key.bridge.decode(reading) { return value }
    }
    return nil
  }

  /// What a read that cannot decode `object` does instead, for its report: a launch
  /// argument is named as such (nothing is stored), and text that reads as the key's type
  /// (what `defaults write` stores without a type flag) names the flag that fixes it.
  func fallbackMessage<Value>(
    _ object: Any, _ key: KeyDescriptor<Value>, then: String
  ) -> String {
    if backend.launchArgument(forKey: key.name) != nil {
      return "the launch argument -\(key.name) cannot be read as \(Value.self) (see the README's "
        + "launch-argument table); \(then), and nothing stored is changed"
    }
    guard let text = object as? String else { return "\(then), the stored value is left as it is" }
    for reading in ArgumentText.readings(of: text) where (try? key.bridge.decode(reading)) != nil {
      let flag =
        Value.self is Bool.Type || Value.self is Bool?.Type
        ? "-bool"
        : Value.self is any BinaryFloatingPoint.Type || Value.self is Double?.Type
          || Value.self is Float?.Type ? "-float" : "-int"
      return "\(then), the stored value is left as it is; it is text, as `defaults write` "
        + "stores a value given without a type: write it as `defaults write "
        + "\(suite.name ?? ProcessInfo.processInfo.processName) \(key.name) \(flag) \(text)`"
    }
    return "\(then), the stored value is left as it is"
  }

  /// The value an observer is given for a stored object: decoded, or `nil` (for the key's
  /// default) when nothing is stored or the object cannot be read (reported, as a read
  /// reports it). Nothing is cached: the object may already be an old one.
  func observedValue<Value>(_ object: Any?, _ key: KeyDescriptor<Value>) -> Value? {
    guard let object else { return nil }
    do {
      return try key.bridge.decode(object)
    } catch {
      if let argument = argumentReading(object, key, failure: error) { return argument }
      DefaultsDiagnostics.report(
        error.kind, key: key.name, suite: suite.name,
        "\(error.message); observers are given the default instead")
      return nil
    }
  }

  /// Whether anything is stored under `name` (registered defaults included).
  func hasStoredValue(_ name: String) -> Bool {
    suite.hub.tracking.access(TrackedKeys.path(for: name))
    return backend.object(forKey: name) != nil
  }

  // MARK: Writing

  /// Stores `value`; an optional `nil` removes the stored value. A value that cannot be
  /// stored, or an invalid key name, is reported and nothing is written.
  ///
  /// Inlinable, so that it is specialised for `Value` where it is called: unspecialised,
  /// it asked the runtime for the metadata of `KeyDescriptor<Value>` and
  /// `ValueBridge<Value>` on every write (about 650 of a Foundation write's 2,750
  /// instructions beyond Foundation's own `set`, callgrind).
  @inlinable
  func write<Value>(_ value: Value, for key: KeyDescriptor<Value>) {
    guard key.isValidName else { return refuseInvalidName(key.name) }
    let object: Any?
    do throws(DefaultsError) {
      object = try key.bridge.encode(value)
    } catch {
      return reportUnwritable(error, name: key.name)
    }
    guard let object else { return remove(key.name) }
    set(object, forName: key.name, trackingPath: key.trackingPath)
  }

  /// Reports a write refused for its key's name (see ``KeyName``).
  @usableFromInline
  func refuseInvalidName(_ name: String) {
    KeyName.validate(name, suite: suite.name)
  }

  /// Reports a value that has no stored form; nothing was written.
  @usableFromInline
  func reportUnwritable(_ error: DefaultsError, name: String) {
    DefaultsDiagnostics.report(
      error.kind, key: name, suite: suite.name, "\(error.message); nothing was written")
  }

  /// Stores an untyped value after checking that it is a property list; `nil` removes.
  /// Throws ``DefaultsError`` (and writes nothing) for anything Foundation cannot store.
  func writeObject(_ value: Any?, forName name: String) throws(DefaultsError) {
    try backend.storeObject(value, forName: name)
  }

  @usableFromInline
  func remove(_ name: String) {
    backend.update(name, to: nil, trackingPath: nil)
  }

  @usableFromInline
  func set(_ object: Any, forName name: String, trackingPath: TrackedKeys.Path?) {
    backend.update(name, to: object, trackingPath: trackingPath)
  }
}

// MARK: The read path

extension UserDefaults {
  /// The library's path to this instance, through its suite's backend (see
  /// `withBackend(_:)`, the one place that finds it).
  @usableFromInline
  var access: DefaultsAccess { DefaultsAccess(backend: backend) }

  /// The stored value of `key`, or `nil` when nothing is stored or the stored value cannot
  /// be read (reported once per stored value, left as it is). Every surface reads through
  /// here, on every backend: a value cheap to decode is one call into the suite's backend
  /// (``StoreBackend/storedObject(forKey:tracking:)``: tracking, lock, lookup) and a cast,
  /// without the cache, which costs more than such a decode (a scalar the library's store
  /// holds is a branch, not a cast, see ``StoredObject``; two calls when the cast fails and
  /// the object is decoded); any other value goes through the decoded-value cache
  /// (``DefaultsAccess``), whose miss keeps the object for its decode.
  @inlinable
  func read<Value>(_ key: KeyDescriptor<Value>) -> Value? {
    guard key.bridge.decodesCheaply else { return access.readThroughCache(key) }
    guard key.bridge.storesValueItself else {
      guard let stored = storedObject(key.name, tracking: key.trackingPath) else { return nil }
      return access.decode(stored.object, key, generation: nil)
    }
    // The read consumes the object: keeping it for the rare decode below cost a second
    // retain and release of a string or array on every read (String read 80-86 -> 73 ns);
    // a decode looks the object up again.
    guard let stored = storedObject(key.name, tracking: key.trackingPath) else { return nil }
    if let value = (consume stored).value(as: Value.self) { return value }
    guard let other = storedObject(key.name, tracking: key.trackingPath) else { return nil }
    return access.decode(other.object, key, generation: nil)
  }

  /// The stored value of `key`, or its default.
  @inlinable
  func value<Value>(_ key: KeyDescriptor<Value>) -> Value {
    if let value = read(key) { return value }
    return key.defaultValue.value
  }
}

// MARK: Names resolved once

/// A stored name resolved for `Value` once (its bridge, its Observation key path, its
/// name check), for front doors that name keys at run time and keep what they resolved:
/// `SafeDefaults` resolves each key once per thread instead of on every call.
@usableFromInline
package struct ResolvedName<Value> {
  /// For removals: an optional, so that `nil` removes.
  @usableFromInline let removing: KeyDescriptor<Value?>
  /// For reads and for writes of a value: the same name with `Value`'s own bridge, so
  /// that a scalar is cast to `Value`, not to `Value?` (which takes a second pass through
  /// the runtime's cast). Neither ``Foundation/UserDefaults/read(_:)`` nor a write asks a
  /// descriptor for its default.
  @usableFromInline let typed: KeyDescriptor<Value>

  @usableFromInline
  package init(_ name: String) {
    removing = KeyDescriptor(name: name, bridge: .shared, defaultValue: .constant(nil))
    typed = KeyDescriptor(
      name: name, bridge: .shared,
      defaultValue: .computed { preconditionFailure("a resolved name has no default") })
  }
}

extension UserDefaults {
  /// The value stored under `name`, or `nil`; read as a typed key reads, specialised here.
  @inlinable
  package func value<Value>(_ name: ResolvedName<Value>) -> Value? {
    read(name.typed)
  }

  /// Stores `value` under `name` as a typed key writes; `nil` removes. Inlinable, as the
  /// read is: unspecialised, reaching into a `ResolvedName<Value>` looked its type up at
  /// run time on every write. With the bridge below, a `SafeDefaults` Int write went from
  /// 8,341 to 7,477 instructions (a typed key's: 7,456).
  @inlinable
  package func set<Value>(_ value: Value?, for name: ResolvedName<Value>) {
    // `Value`'s own bridge, as a typed key's: the same object `OptionalCoding` would make,
    // without going through its `any ValueCoding`.
    guard let value else { return access.write(nil, for: name.removing) }
    access.write(value, for: name.typed)
  }
}

import Foundation
import PropertyListCodec

/// The one coding path from every surface to a suite's backend, with
/// `UserDefaults.write(_:for:)` for typed writes: nothing else decodes or encodes a value.
@usableFromInline
struct DefaultsAccess: Sendable {
  let backend: any StoreBackend

  init(backend: any StoreBackend) {
    self.backend = backend
  }

  /// Not stored: every read makes a `DefaultsAccess`, and a stored reference costs a retain.
  var suite: SuiteContext { backend.context }

  // MARK: Reading

  @usableFromInline
  enum CacheProbe {
    case hit(DecodedValueCache.Entry)
    case absent
    /// `generation`: seen before the read, when the cache trusts entries uncompared.
    case miss(Any, generation: UInt64?)
  }

  /// For a key whose decode is not cheap.
  @inlinable
  func readThroughCache<Value>(_ key: KeyDescriptor<Value>) -> Value? {
    switch probe(key.name, key.identity, key.bridge.token) {
    case .hit(let entry): return (entry as? DecodedValueCache.Decoded<Value>)?.value
    case .absent: return nil
    case .miss(let object, let generation):
      if key.bridge.storesValueItself,
        let value = ExactTypeCast.value(of: object, as: Value.self)
      {
        return value
      }
      return decode(object, key, generation: generation)
    }
  }

  @usableFromInline
  func probe(_ name: String, _ identity: KeyIdentity, _ token: BridgeToken) -> CacheProbe {
    let suite = self.suite
    suite.hub.tracking.access(identity.path)
    if suite.seesEveryWrite {
      let (entry, generation) = suite.cache.trustedLookup(name, token: token)
      if let entry { return .hit(entry) }
      guard let object = backend.object(forKey: name, number: identity.number) else {
        return .absent
      }
      return .miss(object, generation: generation)
    }
    guard let object = backend.object(forKey: name, number: identity.number) else {
      return .absent
    }
    if let entry = suite.cache.lookup(name, token: token, object: object) { return .hit(entry) }
    return .miss(object, generation: nil)
  }

  /// Caches a failure always, so it is reported once; a cheap success never. Cached only
  /// if no write came in since `generation`.
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
        failureMessage(error, object, key, then: "reading the default instead"))
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

  /// Launch-argument text (`-count 5`) read as `integer(forKey:)` would. Not cached:
  /// converting costs less than the cache's bookkeeping.
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

  /// Why `object` was not read, and what happens instead. A launch argument's text is
  /// named as such: the coding's own words ("stored JSON is not …") would blame the file.
  /// `afterwards`: what becomes of the stored value, when it is not left as it is;
  /// `isArgument`: whether `object` is the key's launch argument, when not every object
  /// read under one is (a transaction reads the suite's own value).
  func failureMessage<Value>(
    _ error: DefaultsError, _ object: Any, _ key: KeyDescriptor<Value>, then: String,
    afterwards: String? = nil, isArgument: Bool? = nil
  ) -> String {
    let fallback = fallbackMessage(
      object, key, then: then, afterwards: afterwards, isArgument: isArgument)
    if isArgument != false, case .string(let argument)? = backend.launchArgument(forKey: key.name),
      argument == object as? String
    {
      return fallback
    }
    return "\(error.message); \(fallback)"
  }

  /// Text of the suite's own that reads as the key's type names the `defaults write` flag
  /// that fixes it.
  func fallbackMessage<Value>(
    _ object: Any, _ key: KeyDescriptor<Value>, then: String, afterwards: String? = nil,
    isArgument: Bool? = nil
  ) -> String {
    if isArgument ?? (backend.launchArgument(forKey: key.name) != nil) {
      return "the launch argument -\(key.name) cannot be read as \(Value.self) (see the article "
        + "\"Where a read looks: the search list\"); \(then), and "
        + (afterwards ?? "nothing stored is changed")
    }
    let stored = afterwards ?? "the stored value is left as it is"
    // Only the suite's own value can come from `defaults write`: text registered as a
    // default is the app's, and no flag fixes it. Built once per stored object (failures
    // are cached), so the lookup costs no read.
    guard let text = object as? String, backend.ownObject(forKey: key.name) as? String == text
    else { return "\(then), \(stored)" }
    for reading in ArgumentText.readings(of: text) where (try? key.bridge.decode(reading)) != nil {
      let flag =
        Value.self is Bool.Type || Value.self is Bool?.Type
        ? "-bool"
        : Value.self is any BinaryFloatingPoint.Type || Value.self is Double?.Type
          || Value.self is Float?.Type ? "-float" : "-int"
      return "\(then), \(stored); it is text, as `defaults write` "
        + "stores a value given without a type: write it as `defaults write "
        + "\(suite.name ?? ProcessInfo.processInfo.processName) \(key.name) \(flag) \(text)`"
    }
    return "\(then), \(stored)"
  }

  /// Not cached: the object may already be an old one.
  func observedValue<Value>(_ object: Any?, _ key: KeyDescriptor<Value>) -> Value? {
    guard let object else { return nil }
    return uncachedValue(object, key) { error in
      failureMessage(error, object, key, then: "observers are given the default instead")
    }
  }

  /// What a transaction reads: the suite's own `object` (`isOwn`: taken from the suite's
  /// own domain, under a launch argument that hides it from plain reads) or what a plain
  /// read finds. Not cached: a transaction is not a hot path. A value it cannot read is
  /// reported as what follows: the transaction starts from the default, and a write of
  /// the key in it (an `update` always writes) replaces the suite's own value, is stored
  /// over a lower one, which stays where it is, or, under a launch argument, is stored and
  /// still hidden by it from plain reads.
  func transactionValue<Value>(
    _ object: Any, _ key: KeyDescriptor<Value>, isOwn: Bool
  ) -> Value? {
    uncachedValue(object, key) { error in
      // Without an own value under a launch argument, what was read is the argument.
      let isArgument = !isOwn && backend.launchArgument(forKey: key.name) != nil
      let afterwards =
        isArgument
        ? "a write of the key in the transaction is stored, and the launch argument still "
          + "hides it from plain reads"
        : isOwn || backend.ownObject(forKey: key.name) != nil
          ? "a write of the key in the transaction replaces the stored value"
          : "a write of the key in the transaction stores the suite's own value over it"
      return failureMessage(
        error, object, key, then: "the transaction starts from the default instead",
        afterwards: afterwards, isArgument: isArgument)
    }
  }

  /// `message`: the report of a value that cannot be read, made only then.
  private func uncachedValue<Value>(
    _ object: Any, _ key: KeyDescriptor<Value>, report message: (DefaultsError) -> String
  ) -> Value? {
    do {
      return try key.bridge.decode(object)
    } catch {
      if let argument = argumentReading(object, key, failure: error) { return argument }
      DefaultsDiagnostics.report(error.kind, key: key.name, suite: suite.name, message(error))
      return nil
    }
  }

  /// From the backend whatever the instance's class: what migrations move.
  func object(forName name: String) -> Any? {
    backend.object(forKey: name, number: KeyIdentity.of(name).number)
  }

  /// Registered defaults included.
  func hasStoredValue(_ name: String) -> Bool {
    let identity = KeyIdentity.of(name)
    suite.hub.tracking.access(identity.path)
    return backend.object(forKey: name, number: identity.number) != nil
  }

  // MARK: Writing

  @usableFromInline
  func reportUnwritable(_ error: DefaultsError, name: String) {
    DefaultsDiagnostics.report(
      error.kind, key: name, suite: suite.name, "\(error.message); nothing was written")
  }

  func writeObject(_ value: Any?, forName name: String) throws(DefaultsError) {
    try backend.storeObject(value, forName: name)
  }

  func remove(_ name: String) {
    backend.update(name, to: nil, identity: nil)
  }
}

// MARK: The write path

extension UserDefaults {
  /// Every typed write of every surface passes here (`nil` removes). Inlinable:
  /// unspecialised, every write asks the runtime for its descriptor's and bridge's metadata.
  @inlinable
  func write<Value>(_ value: Value, for key: KeyDescriptor<Value>) {
    let object: Any?
    do throws(DefaultsError) {
      object = try key.storedForm(of: value)
    } catch {
      return access.reportUnwritable(error, name: key.name)
    }
    update(key.name, to: object, identity: key.identity)
  }

  /// Borrows the backend for the call; ``access`` would retain and release it.
  @usableFromInline
  func update(_ name: String, to object: consuming Any?, identity: KeyIdentity) {
    withBackend { $0.update(name, to: object, identity: identity) }
  }
}

// MARK: The read path

extension UserDefaults {
  @usableFromInline
  var access: DefaultsAccess { DefaultsAccess(backend: backend) }

  /// Every surface reads here. A cheap decode skips the cache, which costs more than it.
  @inlinable
  func read<Value>(_ key: KeyDescriptor<Value>) -> Value? {
    guard key.bridge.decodesCheaply else { return access.readThroughCache(key) }
    guard key.bridge.storesValueItself else {
      guard let stored = storedObject(key.name, identity: key.identity) else { return nil }
      return access.decode(stored.object, key, generation: nil)
    }
    // Consumed: keeping it for the rare decode would cost every read a retain.
    guard let stored = storedObject(key.name, identity: key.identity) else { return nil }
    if let value = (consume stored).value(as: Value.self) { return value }
    guard let other = storedObject(key.name, identity: key.identity) else { return nil }
    return access.decode(other.object, key, generation: nil)
  }

  @inlinable
  func value<Value>(_ key: KeyDescriptor<Value>) -> Value {
    if let value = read(key) { return value }
    return key.defaultValue.value
  }
}

// MARK: Names resolved once

/// A name resolved for `Value` once, for front doors that name keys at run time.
@usableFromInline
package struct ResolvedName<Value> {
  @usableFromInline let removing: KeyDescriptor<Value?>
  /// Cast to `Value`, not `Value?`, which would pass through the runtime's cast twice.
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
  @inlinable
  package func value<Value>(_ name: ResolvedName<Value>) -> Value? {
    read(name.typed)
  }

  /// Inlinable: unspecialised, every write looks up `ResolvedName<Value>` at run time.
  @inlinable
  package func set<Value>(_ value: Value?, for name: ResolvedName<Value>) {
    // The object `OptionalCoding` would make, without its `any ValueCoding`.
    guard let value else { return write(nil, for: name.removing) }
    write(value, for: name.typed)
  }
}

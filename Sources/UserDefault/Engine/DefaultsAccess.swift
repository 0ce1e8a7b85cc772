import Foundation

/// The one path from every surface of the library to a store.
///
/// Reads go: (library store) decoded-value cache, else stored object → cache check →
/// decode. Writes go: encode → refuse or store → invalidate cache → notify the hub →
/// schedule saving. Nothing else in the library calls `object(forKey:)` or
/// `set(_:forKey:)` for a typed value.
@usableFromInline
struct DefaultsAccess {
  let defaults: UserDefaults
  let suite: SuiteContext
  /// The library's store behind `defaults`, when it is one (found once, by `access`):
  /// writes go straight to it, which compares, caches and notifies itself.
  let engine: StoreEngine?

  // MARK: Reading

  /// What the cache knows about a name, found without generic code (the read path is
  /// inlined into callers and specialised there; only the last step is per type).
  @usableFromInline
  enum CacheProbe {
    /// A decoded value or an undecodable object, still matching the store.
    case hit(DecodedValueCache.Entry)
    /// Nothing stored.
    case absent
    /// A stored object the cache does not hold (yet).
    case miss(Any)
  }

  /// The stored value, or `nil` when nothing is stored or the stored value cannot be read
  /// (reported once per stored value, left as it is).
  @inlinable
  func read<Value>(_ key: KeyDescriptor<Value>) -> Value? {
    switch probe(key.name, key.trackingPath, key.bridge.token, key.bridge.decodesCheaply) {
    case .hit(let entry): return (entry as? DecodedValueCache.Decoded<Value>)?.value
    case .absent: return nil
    case .miss(let object):
      // A cast, specialised here, where the stored object is the value itself.
      if key.bridge.storesValueItself, let value = object as? Value { return value }
      return decode(object, key)
    }
  }

  /// The stored value, or the key's default.
  @inlinable
  func value<Value>(_ key: KeyDescriptor<Value>) -> Value {
    if let value = read(key) { return value }
    return key.defaultValue.value
  }

  @usableFromInline
  func probe(
    _ name: String, _ path: TrackedKeys.Path, _ token: BridgeToken, _ decodesCheaply: Bool
  ) -> CacheProbe {
    suite.hub.tracking.access(path)
    // A cheap decode (a cast or two) costs less than any cache lookup: skip the cache.
    if decodesCheaply {
      guard let object = defaults.object(forKey: name) else { return .absent }
      return .miss(object)
    }
    if suite.seesEveryWrite, let entry = suite.cache.lookup(name, token: token, object: nil) {
      return .hit(entry)
    }
    guard let object = defaults.object(forKey: name) else { return .absent }
    if let entry = suite.cache.lookup(name, token: token, object: object) { return .hit(entry) }
    return .miss(object)
  }

  /// Decodes a stored object the cache does not hold, and caches the outcome (a cheap
  /// success is not cached; a failure always is, so that it is reported once per stored
  /// value, not on every read).
  @usableFromInline
  func decode<Value>(_ object: Any, _ key: KeyDescriptor<Value>) -> Value? {
    let token = key.bridge.token
    let value: Value
    do {
      value = try key.bridge.decode(object)
    } catch {
      if let known = suite.cache.lookup(key.name, token: token, object: object),
        known is DecodedValueCache.Undecodable
      {
        return nil
      }
      DefaultsDiagnostics.report(
        error.kind, key: key.name, suite: suite.name,
        "\(error.message); reading the default instead, the stored value is left as it is")
      suite.cache.store(
        key.name, token: token, object: object, result: Result<Value, _>.failure(error))
      return nil
    }
    if !key.bridge.decodesCheaply {
      suite.cache.store(key.name, token: token, object: object, result: .success(value))
    }
    return value
  }

  /// Whether anything is stored under `name` (registered defaults included).
  func hasStoredValue(_ name: String) -> Bool {
    suite.hub.tracking.access(TrackedKeys.path(for: name))
    return defaults.object(forKey: name) != nil
  }

  // MARK: Writing

  /// Stores `value`; an optional `nil` removes the stored value. A value that cannot be
  /// stored, or an invalid key name, is reported and nothing is written.
  @usableFromInline
  func write<Value>(_ value: Value, for key: KeyDescriptor<Value>) {
    guard key.isValidName else {
      KeyName.validate(key.name, suite: suite.name)
      return
    }
    do {
      guard let object = try key.bridge.encode(value) else {
        remove(key.name)
        return
      }
      set(object, forName: key.name, trackingPath: key.trackingPath)
    } catch {
      DefaultsDiagnostics.report(
        error.kind, key: key.name, suite: suite.name, "\(error.message); nothing was written")
    }
  }

  /// Stores an untyped value after checking that it is a property list; `nil` removes.
  /// Throws ``DefaultsError`` (and writes nothing) for anything Foundation cannot store.
  func writeObject(_ value: Any?, forName name: String) throws(DefaultsError) {
    if let problem = KeyName.problem(with: name) { throw DefaultsError(.invalidKey, problem) }
    guard let value, let unwrapped = PropertyListObject.unwrapped(value) else {
      remove(name)
      return
    }
    set(try PropertyListObject.validated(unwrapped), forName: name)
  }

  func remove(_ name: String) {
    if let engine {
      engine.update(name, to: nil)
      return
    }
    let old = observedObject(name)
    callingFoundation(name, nil) { defaults.removeObject(forKey: name) }
    didWrite(name, old: old, new: nil)
  }

  private func set(_ object: Any, forName name: String, trackingPath: TrackedKeys.Path? = nil) {
    if let engine {  // the object is already checked
      engine.update(name, to: object, trackingPath: trackingPath)
      return
    }
    let old = observedObject(name)
    if case .some(.some(let current)) = old, PropertyListEquality.isEqual(current, object) {
      return  // Equal to what is stored: nothing changes, nobody is told.
    }
    callingFoundation(name, object) { defaults.set(object, forKey: name) }
    didWrite(name, old: old, new: object)
  }

  /// Runs Foundation's setter so that the change notification it may post is not taken
  /// for an outside change (see ``FoundationChangeNotifications``).
  private func callingFoundation(_ name: String, _ object: Any?, _ body: () -> Void) {
    guard let watcher = suite.foundationNotificationsIfWatched else { return body() }
    watcher.libraryWrote(name, object)
    FoundationChangeNotifications.$isLibraryWriting.withValue(true, operation: body)
  }

  /// The current object, fetched only when a listener will be told about the change;
  /// `.none` when not fetched.
  private func observedObject(_ name: String) -> Any?? {
    guard suite.hub.hasListeners(for: name) else { return .none }
    return .some(defaults.object(forKey: name))
  }

  private func didWrite(_ name: String, old: Any??, new: Any?) {
    suite.cache.invalidate(name)
    FoundationSaving.scheduleSave(of: defaults, suite: suite)
    if case .some(let old) = old {
      if old == nil && new == nil { return }
      suite.hub.publish(ChangeHub.Change(name: name, oldObject: old, newObject: new))
    } else {
      suite.hub.publish(ChangeHub.Change(name: name, oldObject: nil, newObject: new))
    }
  }
}

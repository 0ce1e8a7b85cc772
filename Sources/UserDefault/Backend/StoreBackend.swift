import Foundation

/// The one seam between the library and where values live. Everything above it (keys,
/// bridging, every surface, observation, migrations) reaches storage only through these
/// requirements; it never asks which store it has.
///
/// Two implementations, one per kind of store, each one object per suite per process:
/// ``FoundationSuite`` (Foundation's `UserDefaults` instances of a suite, made to save
/// safely on Linux) and ``FileStore`` (the library's own file store; without a file, the
/// in-memory store). ``UserDefaults/access`` is the one place that finds the backend of
/// an instance. The one exception is a typed scalar read, the hottest path: it tells the
/// two kinds apart by class and calls each one's own tracked read
/// (``FileStore/storedObject(forKey:tracking:)``, which hands out the store's
/// ``StoredObject``, or ``FoundationSuite/object(forKey:tracking:)``), borrowing the
/// backend instead of retaining it through a ``DefaultsAccess``.
protocol StoreBackend: AnyObject, Sendable {
  /// The suite's shared state: its name, decoded-value cache and change hub.
  var context: SuiteContext { get }

  /// The stored object for `name` (registered defaults included), or `nil`.
  /// Cost: one lookup in the store.
  func object(forKey name: String) -> Any?

  /// Stores `object` under `name` (`nil` removes), tells the suite's observers and
  /// schedules saving. The object is already a checked property list. Writing a value
  /// equal to the stored one, of the same property-list type, changes nothing.
  func update(_ name: String, to object: Any?, trackingPath: TrackedKeys.Path?)

  /// Runs `body` with other processes' writes to the suite held off, after taking in
  /// what they wrote; `commit` makes the changes so far durable without letting go.
  /// Backends that cannot exclude other processes run `body` in this process only.
  func exclusively<Result>(
    _ body: (_ commit: () throws(DefaultsError) -> Void) throws(DefaultsError) -> Result
  ) throws(DefaultsError) -> Result

  /// Makes every change so far durable now, and waits; throws (and reports) on failure.
  func flush() throws(DefaultsError)

  /// Starts noticing changes of `names` made outside the library (plain Foundation
  /// calls, where Foundation posts a notification), so their observers hear them.
  func watchOutsideChanges(of names: [String])
}

extension UserDefaults {
  /// The library's path to this instance, through its suite's backend.
  ///
  /// The one place that resolves a backend: a ``PreferencesStore`` carries its file
  /// store; any other instance is found in ``FoundationInstances`` (once per instance;
  /// then one lock and lookup).
  @usableFromInline
  var access: DefaultsAccess {
    // A class cast: cheaper than asking for a protocol conformance on every read.
    if let store = self as? PreferencesStore { return DefaultsAccess(backend: store.fileStore) }
    return DefaultsAccess(backend: FoundationInstances.backend(of: self))
  }

  /// Whether this is a ``PreferencesStore``, whose typed reads go to its store's
  /// ``StoredObject``s. A plain Foundation instance is told by its class alone (one
  /// compare), before the cast that walks the class chain.
  @usableFromInline
  var isLibraryStore: Bool {
    type(of: self) != UserDefaults.self && self is PreferencesStore
  }

  /// ``FileStore/storedObject(forKey:tracking:)`` of this ``PreferencesStore``'s store,
  /// borrowed rather than held: a scalar read makes no ``DefaultsAccess``, and so pays no
  /// retain and release of the store. Only for an instance ``isLibraryStore`` is true of.
  @usableFromInline
  func libraryStoreObject(_ name: String, tracking path: TrackedKeys.Path) -> StoredObject? {
    // A downcast that cannot fail here: `as?` would hand back a retained store.
    unsafeDowncast(self, to: PreferencesStore.self).fileStore.storedObject(
      forKey: name, tracking: path)
  }

  /// ``StoreBackend/object(forKey:tracking:)`` of this instance's backend, found as
  /// ``access`` finds it but borrowed rather than held (see ``libraryStoreObject(_:tracking:)``).
  @usableFromInline
  func storedObject(_ name: String, tracking path: TrackedKeys.Path) -> Any? {
    if isLibraryStore { return libraryStoreObject(name, tracking: path)?.object }
    return foundationObject(name, tracking: path)
  }

  /// ``storedObject(_:tracking:)`` of an instance that is not a ``PreferencesStore``.
  @usableFromInline
  func foundationObject(_ name: String, tracking path: TrackedKeys.Path) -> Any? {
    FoundationInstances.withBackend(of: self) { $0.object(forKey: name, tracking: path) }
  }
}

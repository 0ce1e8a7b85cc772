import Foundation
import PropertyListCodec

/// The one backend of each suite in this process: file stores by their file's path,
/// Foundation suites by name. Backends are made on first use and kept for the life of the
/// process (as Foundation keeps its own per-suite state), so every object of a suite
/// reaches the same values, cache and observers, and a write made through an object
/// released since is still saved, by its backend's flush or the exit flush.
enum SuiteRegistry {
  private struct Table {
    var fileStores: [String: FileStore] = [:]
    var foundationSuites: [String: FoundationSuite] = [:]
  }
  private static let table = Lock(Table())

  /// The file store identified by `identity` (its file's path), made by `make` the first
  /// time.
  static func fileStore(identifiedBy identity: String, make: () -> FileStore) -> FileStore {
    let (store, isNew) = table.withLock { table in
      if let store = table.fileStores[identity] { return (store, false) }
      let store = make()
      table.fileStores[identity] = store
      return (store, true)
    }
    if isNew { ExitFlush.install() }
    return store
  }

  /// The backend of the Foundation suite `name` (`nil`: the standard suite). The first
  /// time, its instance is made and first read here, under the registry's lock, so no
  /// two threads ever make the suite's first instance at once (see ``FoundationSuite``);
  /// `fallback` serves when Foundation will not make another instance of the suite.
  static func foundationSuite(named name: String?, fallback: UserDefaults) -> FoundationSuite {
    table.withLock { table in
      let key = name.map { "suite:" + $0 } ?? "standard"
      if let suite = table.foundationSuites[key] { return suite }
      let instance = name.map { UserDefaults(suiteName: $0) ?? fallback } ?? .standard
      _ = instance.object(forKey: "UserDefault.firstTouch")
      let suite = FoundationSuite(
        name: name, defaults: instance, saving: FoundationSuite.savingPlace(forSuite: name))
      // Never removed: reads borrow a suite's backend unretained (FoundationInstances.withBackend).
      table.foundationSuites[key] = suite
      return suite
    }
  }

  static func fileStores() -> [FileStore] {
    table.withLock { Array($0.fileStores.values) }
  }

  static func foundationSuites() -> [FoundationSuite] {
    table.withLock { Array($0.foundationSuites.values) }
  }
}

import Foundation

/// The one backend of each suite in this process, kept for its life (as Foundation
/// keeps its per-suite state): every object of a suite shares it, and a write made
/// through an object released since is still saved.
enum SuiteRegistry {
  private struct Table {
    var fileStores: [String: FileStore] = [:]
    var foundationSuites: [String: FoundationSuite] = [:]
  }
  private static let table = Lock(Table())

  /// The file store of the path `identity`, made by `make` the first time.
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

  /// The backend of the Foundation suite `name`, whose first instance is made and read
  /// under the registry's lock (see ``FoundationSuite``). `fallback` serves when
  /// Foundation will not make another instance.
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

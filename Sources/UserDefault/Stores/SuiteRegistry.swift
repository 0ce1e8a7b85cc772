import Foundation
import PropertyListCodec

/// The one backend of each suite in this process, kept for its life (as Foundation
/// keeps its per-suite state): every object of a suite shares it, and a write made
/// through an object released since is still saved by the exit flush, which asks every
/// backend here whether it has unsaved changes.
enum SuiteRegistry {
  private static let table = Lock([String: any StoreBackend]())

  /// The backend registered as `identity` for its type, made by `make` the first time
  /// (under the registry's lock, so no two threads make one suite's backend at once).
  static func backend<Backend: StoreBackend>(
    identifiedBy identity: String, make: () -> Backend
  ) -> Backend {
    let key = "\(Backend.self):\(identity)"
    let (backend, isNew) = table.withLock { table -> (Backend, Bool) in
      if let known = table[key] as? Backend { return (known, false) }
      let made = make()
      table[key] = made
      return (made, true)
    }
    if isNew { ExitFlush.install() }
    return backend
  }

  /// The backend of the Foundation suite `name`, whose first instance is made and read
  /// under the registry's lock (see ``FoundationSuite``). `fallback` serves when
  /// Foundation will not make another instance.
  static func foundationSuite(named name: String?, fallback: UserDefaults) -> FoundationSuite {
    backend(identifiedBy: name.map { "suite:" + $0 } ?? "standard") {
      let instance = name.map { UserDefaults(suiteName: $0) ?? fallback } ?? .standard
      _ = instance.object(forKey: "UserDefault.firstTouch")
      return FoundationSuite(
        name: name, defaults: instance, saving: FoundationSuite.savingPlace(forSuite: name))
    }
  }

  /// Every backend registered so far.
  static func backends() -> [any StoreBackend] {
    table.withLock { Array($0.values) }
  }
}

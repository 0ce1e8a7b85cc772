import Observation
import Synchronization

/// Connects the keys of one suite to the Observation framework, key by key.
///
/// Each stored name gets its own key path (a subscript of this object), so a view or
/// `withObservationTracking` block that read one key is invalidated only by a change of
/// that key. Cost of a read: one lock and lookup for the key path plus the registrar's
/// own check; a change pays a registrar call only for names that were ever read.
final class TrackedKeys: Observable, Sendable {
  private let registrar = ObservationRegistrar()
  private let paths = Lock<[String: KeyPath<TrackedKeys, Int>]>([:])

  /// A per-key subject for the registrar; its value is never used.
  subscript(key name: String) -> Int { 0 }

  func access(_ name: String) {
    let path = paths.withLock { paths in
      if let path = paths[name] { return path }
      let path = \TrackedKeys.[key: name]
      paths[name] = path
      return path
    }
    registrar.access(self, keyPath: path)
  }

  func didChange(_ name: String) {
    guard let path = paths.withLock({ $0[name] }) else { return }
    registrar.withMutation(of: self, keyPath: path) {}
  }
}

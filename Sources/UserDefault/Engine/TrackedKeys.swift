import Observation
import PropertyListCodec

/// Connects the keys of one suite to the Observation framework, key by key.
///
/// Each stored name gets its own key path (a subscript of this class), so a view or
/// `withObservationTracking` block that read one key is invalidated only by a change of
/// that key. The key path of a name is made once per process and kept by every
/// ``KeyDescriptor`` of that name, so a read costs only the registrar's own check; a
/// change pays a registrar call only for names some descriptor was made for.
@usableFromInline
final class TrackedKeys: Observable, Sendable {
  /// A key path standing for one stored name.
  @usableFromInline typealias Path = KeyPath<TrackedKeys, Int> & Sendable

  private let registrar = ObservationRegistrar()
  private static let paths = Lock<[String: Path]>([:])

  /// A per-key subject for the registrar; its value is never used.
  subscript(key name: String) -> Int { 0 }

  /// The one key path standing for `name` (made on first use). Cost: one lock and lookup.
  static func path(for name: String) -> Path {
    paths.withLock { paths in
      if let path = paths[name] { return path }
      let path: Path = \TrackedKeys.[key: name]
      paths[name] = path
      return path
    }
  }

  func access(_ path: Path) {
    registrar.access(self, keyPath: path)
  }

  func didChange(_ name: String, path known: Path? = nil) {
    guard let path = known ?? Self.paths.withLock({ $0[name] }) else { return }
    registrar.withMutation(of: self, keyPath: path) {}
  }
}

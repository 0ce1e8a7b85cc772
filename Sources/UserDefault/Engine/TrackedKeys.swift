import Observation
import PropertyListCodec

/// Connects the keys of one suite to the Observation framework, key by key.
///
/// Each stored name gets its own key path (a subscript of this class), so a view or
/// `withObservationTracking` block that read one key is invalidated only by a change of
/// that key. The key path of a name is made once per process (``KeyIdentity``) and kept
/// by every ``KeyDescriptor`` of that name, so a read costs only the registrar's own check;
/// a change pays a registrar call only for names something declared or read by name.
@usableFromInline
final class TrackedKeys: Observable, Sendable {
  /// A key path standing for one stored name.
  @usableFromInline typealias Path = KeyPath<TrackedKeys, Int> & Sendable

  private let registrar = ObservationRegistrar()

  /// A per-key subject for the registrar; its value is never used.
  subscript(key name: String) -> Int { 0 }

  func access(_ path: Path) {
    registrar.access(self, keyPath: path)
  }

  func didChange(_ name: String, path known: Path? = nil) {
    guard let path = known ?? KeyIdentity.existing(name)?.path else { return }
    registrar.withMutation(of: self, keyPath: path) {}
  }
}

import Foundation
import PropertyListCodec

extension UserDefaults {
  /// Calls `body` with the backend of this instance's suite, borrowed: the one place that
  /// finds the backend a library call on an instance goes to, and the one place a new
  /// backend is registered. (``FoundationChangeNotifications`` asks ``FoundationInstances``
  /// for the suite of an instance that posted a notification: its own, never a scope's.)
  ///
  /// A ``PreferencesStore`` carries its store: a `final` class, so it is told by one
  /// comparison of its class, and its store is lent without a retain. Any other instance
  /// is found in ``FoundationInstances`` (once per instance; then the thread's record of
  /// the last instance it resolved, or one lock and lookup). The standard suite gives way
  /// to the task's scoped default, if it has one (``ScopedDefault``): one more check of a
  /// flag outside every scope.
  ///
  /// - Parameter body: What to do with the backend; it must not keep it past the call
  ///   (``backend`` gives one to keep).
  /// - Returns: What `body` returns.
  @inline(__always)
  func withBackend<Result>(_ body: (any StoreBackend) -> Result) -> Result {
    if type(of: self) == PreferencesStore.self {
      // Cannot fail: the class was compared above; `as?` would hand back a retained store.
      return body(unsafeDowncast(self, to: PreferencesStore.self).fileStore)
    }
    return FoundationInstances.withBackend(of: self) { backend in
      if backend.isStandard, let scoped = ScopedDefault.current, scoped !== self {
        return scoped.withBackend(body)
      }
      return body(backend)
    }
  }

  /// The backend of this instance's suite, retained: for callers that keep it (an
  /// observation, a migration) or make several calls on it.
  var backend: any StoreBackend { withBackend { $0 } }

  /// ``StoreBackend/storedObject(forKey:tracking:)`` of this instance's backend, borrowed:
  /// a typed read pays no retain and release of the backend. Out of line, so that every
  /// read specialised in a caller's module makes one call here.
  @usableFromInline
  func storedObject(_ name: String, tracking path: TrackedKeys.Path) -> StoredObject? {
    withBackend { $0.storedObject(forKey: name, tracking: path) }
  }
}

import Foundation
import PropertyListCodec

extension UserDefaults {
  /// Calls `body` with the backend of this instance's suite: the one place that finds it.
  /// A ``PreferencesStore`` (`final`) is told by one class comparison and lends its store
  /// unretained; any other instance is found in ``FoundationInstances`` (a
  /// ``BackendCarrier`` there gives its own). The standard suite gives way to the task's
  /// ``ScopedDefault``, if any, else to the store ``PreferencesStore/makeLibraryDefault()``
  /// chose: two engines of one file would each save their own view of it. That costs the
  /// standard suite's calls one uncontended lock more.
  ///
  /// - Parameter body: What to do with the backend; it must not keep it past the call
  ///   (``backend`` gives one to keep).
  /// - Returns: What `body` returns.
  @inline(__always)
  func withBackend<Result>(_ body: (any StoreBackend) -> Result) -> Result {
    withBackendAndTrackedKeys { backend, _ in body(backend) }
  }

  /// ``withBackend(_:)``, with the backend's ``TrackedKeys`` found beside it rather than
  /// asked of it: the read path's call through the protocol retained and released.
  @inline(__always)
  func withBackendAndTrackedKeys<Result>(_ body: (any StoreBackend, TrackedKeys) -> Result)
    -> Result
  {
    if type(of: self) == PreferencesStore.self {
      // Cannot fail: the class was compared above; `as?` would hand back a retained store.
      let store = unsafeDowncast(self, to: PreferencesStore.self).fileStore
      // Borrowed: the store holds it for its life.
      return Unmanaged.passUnretained(store.context.hub.tracking)._withUnsafeGuaranteedRef {
        body(store, $0)
      }
    }
    return FoundationInstances.withBackend(of: self) { backend, tracking, isStandard in
      if isStandard, let chosen = ScopedDefault.current ?? LibraryDefault.shared.standard,
        chosen !== self
      {
        return chosen.withBackendAndTrackedKeys(body)
      }
      return body(backend, tracking)
    }
  }

  /// The backend, retained: for callers that keep it or make several calls.
  var backend: any StoreBackend { withBackend { $0 } }

  /// Every typed read's lookup: tells the Observation framework of the read, here above
  /// the seam for every backend, then ``StoreBackend/storedObject(forKey:number:)``. Out of line,
  /// so every specialised read makes one call here.
  @usableFromInline
  func storedObject(_ name: String, identity: KeyIdentity) -> StoredObject? {
    withBackendAndTrackedKeys { backend, tracking in
      tracking.access(identity.path)
      return backend.storedObject(forKey: name, number: identity.number)
    }
  }
}

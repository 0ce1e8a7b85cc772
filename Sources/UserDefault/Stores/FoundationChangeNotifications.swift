import Foundation

/// Turns Foundation's `UserDefaults.didChangeNotification`, which says that something in
/// some suite changed but not what, into per-key changes for one ``FoundationSuite``.
///
/// Darwin posts it after every `set`, including plain calls that bypass the library;
/// Foundation on Linux posts it only for `setPersistentDomain` and
/// `removePersistentDomain`, so there plain `set` calls are not seen in-process. The
/// watcher remembers the last stored object of each observed key and, on a notification
/// from an instance of its suite, publishes the keys whose object now differs. On Apple
/// platforms, where an instance's suite is not known (see ``FoundationInstances``), every
/// notification is checked: comparing is what decides anyway. The backend's own writes publish themselves and update the memory, so they are
/// not delivered twice. Cost: nothing until a key is observed; then one read and
/// comparison per observed key per notification.
final class FoundationChangeNotifications: Sendable {
  private struct State: @unchecked Sendable {
    // Only touched while holding `state`'s lock; the objects are immutable property lists.
    var lastKnown: [String: StoredObject] = [:]
    var watched: Set<String> = []
  }

  private let read: @Sendable (String) -> Any?
  private let announce: @Sendable ([ChangeHub.Change]) -> Void
  private let writer: ObjectIdentifier
  private let state = Lock(State())

  /// A watcher that reads current objects with `read` and reports differences to
  /// `announce`; `writer` identifies the backend whose own writes must not be echoed.
  init(
    writer: ObjectIdentifier, read: @escaping @Sendable (String) -> Any?,
    announce: @escaping @Sendable ([ChangeHub.Change]) -> Void
  ) {
    self.writer = writer
    self.read = read
    self.announce = announce
  }

  /// Starts watching `names`.
  func watch(_ names: [String]) {
    state.withLock { state in
      for name in names where state.watched.insert(name).inserted {
        state.lastKnown[name] = read(name).map(StoredObject.other)
      }
    }
  }

  /// Runs the backend's own Foundation call that stores `object` under `name`, so the
  /// notification Darwin posts from inside it is not taken for an outside change.
  func libraryWrites(_ name: String, _ object: Any?, _ body: () -> Void) {
    state.withLock { state in
      if state.watched.contains(name) { state.lastKnown[name] = object.map(StoredObject.other) }
    }
    Self.$writingBackend.withValue(writer, operation: body)
  }

  /// The backend whose own Foundation call is running on this task, if any.
  @TaskLocal private static var writingBackend: ObjectIdentifier?

  private func handle(_ notification: Notification) {
    guard Self.writingBackend != writer else { return }
    #if !canImport(Darwin)
      guard let defaults = notification.object as? UserDefaults,
        ObjectIdentifier(FoundationInstances.backend(of: defaults)) == writer
      else { return }
    #endif
    let changes = state.withLock { state in
      ChangeHub.reconcile(&state.lastKnown, names: state.watched) {
        read($0).map(StoredObject.other)
      }
    }
    announce(changes)
  }

  /// Subscribes to the notification while the watcher exists (for an identified suite,
  /// the life of the process).
  func subscribe() {
    _ = NotificationCenter.default.addObserver(
      forName: UserDefaults.didChangeNotification, object: nil, queue: nil
    ) { [weak self] notification in
      self?.handle(notification)
    }
  }
}

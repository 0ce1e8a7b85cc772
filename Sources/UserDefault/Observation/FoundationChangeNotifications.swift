import Foundation
import Synchronization

/// Turns Foundation's `UserDefaults.didChangeNotification`, which says that something in
/// some suite changed but not what, into per-key changes for the hub of a Foundation suite.
///
/// Darwin posts it after every `set`, including plain calls that bypass the library;
/// Foundation on Linux posts nothing, so there only library writes are seen in-process.
/// The watcher remembers the last stored object of each observed key and, on a
/// notification from an instance of its suite, publishes the keys whose object differs.
/// Writes made by the library publish themselves and update the memory, so they are not
/// delivered twice. Cost: nothing until a key of a Foundation suite is observed; then one
/// read and comparison per observed key per notification.
final class FoundationChangeNotifications: Sendable {
  private struct State: @unchecked Sendable {
    // Only touched while holding `state`'s lock; the objects are immutable property lists.
    var lastKnown: [String: Any] = [:]
    var watched: Set<String> = []
  }

  private let suite: SuiteContext
  private let state = Lock(State())

  private init(suite: SuiteContext) {
    self.suite = suite
  }

  /// Starts watching `names` of `defaults` when it is a Foundation instance.
  static func watch(_ defaults: UserDefaults, names: [String]) {
    guard !(defaults is PreferencesStore) else { return }
    let context = defaults.access.suite
    let watcher = context.foundationNotifications { FoundationChangeNotifications(suite: context) }
    watcher.state.withLock { state in
      for name in names where state.watched.insert(name).inserted {
        state.lastKnown[name] = defaults.object(forKey: name)
      }
    }
  }

  /// Called by the library's own write of `name`, with the object now stored.
  func libraryWrote(_ name: String, _ object: Any?) {
    state.withLock { state in
      if state.watched.contains(name) { state.lastKnown[name] = object }
    }
  }

  /// Set while the library itself calls Foundation's setters, so the notification
  /// Darwin posts from inside them is not taken for an outside change.
  @TaskLocal static var isLibraryWriting = false

  func handle(_ notification: Notification) {
    guard !Self.isLibraryWriting, let defaults = notification.object as? UserDefaults,
      !(defaults is PreferencesStore), FoundationInstances.context(of: defaults) === suite
    else { return }
    let changes = state.withLock { state in
      var changes: [ChangeHub.Change] = []
      for name in state.watched {
        let new = defaults.object(forKey: name)
        guard let change = ChangeHub.Change(name: name, from: state.lastKnown[name], to: new)
        else { continue }
        state.lastKnown[name] = new
        changes.append(change)
      }
      return changes
    }
    suite.announce(changes)
  }

  /// Subscribes to the notification for the life of the process (suite contexts are
  /// never freed).
  func subscribe() {
    _ = NotificationCenter.default.addObserver(
      forName: UserDefaults.didChangeNotification, object: nil, queue: nil
    ) { [self] notification in
      handle(notification)
    }
  }
}

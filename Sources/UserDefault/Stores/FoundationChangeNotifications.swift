import Foundation
import PropertyListCodec

/// Turns what Foundation says about changes into per-key changes for one
/// ``FoundationSuite``.
///
/// `UserDefaults.didChangeNotification` says that something in some suite changed, not
/// what. Darwin posts it after every `set` in the process, including plain calls that
/// bypass the library, but never for another process's write (a widget, `defaults write`);
/// Foundation on Linux posts it only for `setPersistentDomain` and
/// `removePersistentDomain`, so there plain `set` calls are not seen in-process. On Darwin
/// each watched key is therefore observed by key-value observing instead, which Darwin
/// fires for writes from any instance and any process, one key at a time; only keys that
/// key-value observing would read as a key path (a `.` in the name, or a leading `@`) are
/// left to the notification, which then checks those keys only.
///
/// The watcher remembers the last stored object of each observed key and publishes the
/// keys whose object now differs. On Apple platforms, where an instance's suite is not
/// known (see ``FoundationInstances``), every notification is checked: comparing is what
/// decides anyway. The backend's own writes publish themselves and update the memory, so
/// they are not delivered twice. Cost: nothing until a key is observed; then one read and
/// comparison per changed key on Darwin, and per observed key per notification elsewhere.
final class FoundationChangeNotifications: Sendable {
  private struct State: @unchecked Sendable {
    // Only touched while holding `state`'s lock; the objects are immutable property lists.
    var lastKnown: [String: StoredObject] = [:]
    var watched: Set<String> = []
    /// The watched names the notification checks: all of them but on Darwin, where key-value
    /// observing reports each of the others.
    var notified: Set<String> = []
    /// The notification center's token of this watcher's subscription.
    var subscription: (any NSObjectProtocol)?
  }

  private let read: @Sendable (String) -> Any?
  private let announce: @Sendable ([ChangeHub.Change]) -> Void
  private let writer: ObjectIdentifier
  private let state = Lock(State())
  #if canImport(ObjectiveC)
    private let keyValueObserver: KeyValueObserver
  #endif

  /// A watcher of `instance` that reads current objects with `read` and reports
  /// differences to `announce`; `writer` identifies the backend whose own writes must not
  /// be echoed. The watcher does not keep `instance` alive.
  init(
    instance: UserDefaults?, writer: ObjectIdentifier, read: @escaping @Sendable (String) -> Any?,
    announce: @escaping @Sendable ([ChangeHub.Change]) -> Void
  ) {
    self.writer = writer
    self.read = read
    self.announce = announce
    #if canImport(ObjectiveC)
      keyValueObserver = KeyValueObserver(instance)
      keyValueObserver.changed = { [weak self] in self?.handleChange(of: $0) }
    #endif
  }

  deinit {
    if let token = state.withLock({ $0.subscription }) {
      NotificationCenter.default.removeObserver(token)
    }
  }

  /// Starts watching `names`.
  func watch(_ names: [String]) {
    var observed: [String] = []
    state.withLock { state in
      for name in names where state.watched.insert(name).inserted {
        state.lastKnown[name] = read(name).map(StoredObject.other)
        #if canImport(ObjectiveC)
          if KeyValueObserver.canObserve(name) {
            observed.append(name)
            continue
          }
        #endif
        state.notified.insert(name)
      }
    }
    #if canImport(ObjectiveC)
      keyValueObserver.observe(observed)
    #endif
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
    publishChanges { $0.notified }
  }

  /// Publishes `name` if its object differs from the last known one (key-value observing
  /// said it changed, which it also says for an equal write).
  private func handleChange(of name: String) {
    guard Self.writingBackend != writer else { return }
    publishChanges { _ in CollectionOfOne(name) }
  }

  /// Compares the names `pick` chooses with their last known objects and publishes those
  /// that differ.
  private func publishChanges<Names: Sequence<String>>(_ pick: (State) -> Names) {
    let changes = state.withLock { state in
      let names = pick(state)
      return ChangeHub.reconcile(&state.lastKnown, names: names) {
        read($0).map(StoredObject.other)
      }
    }
    announce(changes)
  }

  /// Subscribes to the notification while the watcher exists: the subscription ends with it.
  func subscribe() {
    let token = NotificationCenter.default.addObserver(
      forName: UserDefaults.didChangeNotification, object: nil, queue: nil
    ) { [weak self] notification in
      self?.handle(notification)
    }
    state.withLock { $0.subscription = token }
  }
}

#if canImport(ObjectiveC)
  /// Darwin's key-value observing of one instance's keys: it reports writes of other
  /// processes (through `cfprefsd`) as well as this one's. Holds the instance weakly (the
  /// library must not keep an instance alive) and removes its observations when it goes.
  private final class KeyValueObserver: NSObject, @unchecked Sendable {
    private struct State {
      weak var instance: UserDefaults?
      var names: Set<String> = []
      var changed: (@Sendable (String) -> Void)?
    }
    // `State` is only read or written inside `state`'s lock.
    private let state: Lock<State>

    init(_ instance: UserDefaults?) {
      state = Lock(State(instance: instance))
    }

    /// What to call with the name of a key that changed; set once, before observing.
    var changed: (@Sendable (String) -> Void)? {
      get { state.withLock { $0.changed } }
      set { state.withLock { $0.changed = newValue } }
    }

    /// Whether key-value observing takes `name` as a key: it reads a `.` as a key path's
    /// separator, and a leading `@` as an operator.
    static func canObserve(_ name: String) -> Bool {
      !name.isEmpty && !name.contains(".") && !name.hasPrefix("@")
    }

    func observe(_ names: [String]) {
      guard !names.isEmpty else { return }
      let (instance, new) = state.withLock { state in
        (state.instance, names.filter { state.names.insert($0).inserted })
      }
      for name in new { instance?.addObserver(self, forKeyPath: name, options: [], context: nil) }
    }

    override func observeValue(
      forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
      context: UnsafeMutableRawPointer?
    ) {
      guard let keyPath, let changed = self.changed else { return }
      changed(keyPath)
    }

    deinit {
      let (instance, names) = state.withLock { ($0.instance, $0.names) }
      for name in names { instance?.removeObserver(self, forKeyPath: name) }
    }
  }
#endif

import Foundation
import PropertyListCodec

/// Turns what Foundation says about changes into per-key changes for one
/// ``FoundationSuite``.
///
/// `UserDefaults.didChangeNotification` says that something changed, not what. Darwin
/// posts it after every `set` in the process but never for another process's write; Linux
/// only for `setPersistentDomain` and `removePersistentDomain`. So on Darwin each watched
/// key is observed by key-value observing, which sees every instance and process; only
/// names it would read as key paths (a `.`, a leading `@`) are left to the notification.
///
/// The watcher remembers each observed key's last object and publishes those that differ;
/// the backend's own writes publish themselves. Cost: nothing until a key is observed;
/// then a read and comparison per changed key on Darwin, per observed key elsewhere.
final class FoundationChangeNotifications: Sendable {
  private struct State: @unchecked Sendable {
    // Only touched while holding `state`'s lock; the objects are immutable property lists.
    var lastKnown: [String: StoredObject] = [:]
    var watched: Set<String> = []
    /// The watched names the notification checks: on Darwin, those KVO cannot observe.
    var notified: Set<String> = []
    var subscription: (any NSObjectProtocol)?
  }

  private let read: @Sendable (String) -> Any?
  private let announce: @Sendable ([ChangeHub.Change]) -> Void
  private let writer: ObjectIdentifier
  private let state = Lock(State())
  #if canImport(ObjectiveC)
    private let keyValueObserver: KeyValueObserver
  #endif

  /// `writer`: the backend whose own writes must not be echoed. `instance` is not kept.
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

  /// Runs the backend's own write, so Darwin's notification from it is not taken for an
  /// outside change.
  func libraryWrites(_ name: String, _ object: Any?, _ body: () -> Void) {
    state.withLock { state in
      if state.watched.contains(name) { state.lastKnown[name] = object.map(StoredObject.other) }
    }
    Self.$writingBackend.withValue(writer, operation: body)
  }

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

  /// Publishes `name` if its object differs (KVO also reports an equal write).
  private func handleChange(of name: String) {
    guard Self.writingBackend != writer else { return }
    publishChanges { _ in CollectionOfOne(name) }
  }

  private func publishChanges<Names: Sequence<String>>(_ pick: (State) -> Names) {
    let changes = state.withLock { state in
      let names = pick(state)
      return ChangeHub.reconcile(&state.lastKnown, names: names) {
        read($0).map(StoredObject.other)
      }
    }
    announce(changes)
  }

  /// The subscription ends with the watcher.
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
  /// Darwin's key-value observing of one instance's keys, which also reports other
  /// processes' writes. Holds the instance weakly.
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

    /// Set once, before observing.
    var changed: (@Sendable (String) -> Void)? {
      get { state.withLock { $0.changed } }
      set { state.withLock { $0.changed = newValue } }
    }

    /// KVO reads a `.` as a key path's separator, and a leading `@` as an operator.
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

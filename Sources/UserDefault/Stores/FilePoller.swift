import Dispatch
import PropertyListCodec

/// Polls the file of every ``FileStore`` that has live objects, on one timer for the
/// whole process, every `PreferencesStore.pollInterval` (200 ms).
///
/// One timer, not one a store: a store's own timer made opening a suite pay for a
/// Dispatch source (resuming wakes Dispatch's manager thread), and many suites meant
/// many timers. The timer runs while some store is polled: the first poll that finds none
/// cancels it, and the next store to start polling makes a new one. Each poll is queued on
/// its store's queue, so a busy store holds up no other.
final class FilePoller: Sendable {
  private struct Polled {
    /// Held strongly: a weak reference would give each store a side table, which sends
    /// every retain and release of it (one pair per read) down the runtime's slow path.
    var stores: [ObjectIdentifier: FileStore] = [:]
    var timer: DispatchSourceTimer?
  }
  private let polled = Lock(Polled())
  private let interval: Duration
  /// What a poll did, told to `observe` (a test's signal).
  enum Event { case polled, stopped }
  private let observe: @Sendable (Event) -> Void

  /// The process's poller, which every store uses.
  static let shared = FilePoller(interval: PreferencesStore.pollInterval)

  init(interval: Duration, observe: @escaping @Sendable (Event) -> Void = { _ in }) {
    self.interval = interval
    self.observe = observe
  }

  /// Called with the store's state locked, so it cannot cross a ``stopPolling(_:)``.
  static func startPolling(_ store: FileStore) { shared.startPolling(store) }

  /// Called with the store's state locked.
  static func stopPolling(_ store: FileStore) { shared.stopPolling(store) }

  /// Starts the timer if there is none; outside the stores' locks, as it reaches Dispatch.
  static func run() { shared.run() }

  func startPolling(_ store: FileStore) {
    polled.withLock { $0.stores[ObjectIdentifier(store)] = store }
  }

  func stopPolling(_ store: FileStore) {
    polled.withLock { $0.stores[ObjectIdentifier(store)] = nil }
  }

  /// Whether the timer is running.
  var isRunning: Bool { polled.withLock { $0.timer != nil } }

  func run() {
    let made = polled.withLock { polled -> DispatchSourceTimer? in
      guard polled.timer == nil else { return nil }
      let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
      polled.timer = timer
      return timer
    }
    guard let made else { return }
    let interval = DeferredFlush.dispatchInterval(interval)
    made.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(20))
    // Weak: the timer, which the poller holds, must not hold the poller.
    made.setEventHandler { [weak self] in self?.poll(made) }
    made.resume()
  }

  /// Polls every store; with none, stops `timer`. The decision and the removal of the
  /// timer are one step under the lock that `startPolling` takes, so a store that starts
  /// polling meanwhile either is seen here or finds no timer and makes one in `run()`.
  /// `timer` is the one held: only this handler, which Dispatch never runs twice at once
  /// for one source, lets it go, and a cancelled timer fires no more.
  private func poll(_ timer: DispatchSourceTimer) {
    let stores = polled.withLock { polled -> [FileStore]? in
      guard polled.stores.isEmpty else { return Array(polled.stores.values) }
      polled.timer = nil
      return nil
    }
    guard let stores else {
      timer.cancel()  // outside the lock, as it reaches Dispatch
      observe(.stopped)
      return
    }
    for store in stores { store.pollFile() }
    observe(.polled)
  }
}

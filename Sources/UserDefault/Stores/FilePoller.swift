import Dispatch
import PropertyListCodec

/// Polls the file of every ``FileStore`` that has live objects, on one timer for the
/// whole process, every `PreferencesStore.pollInterval` (200 ms).
///
/// One timer, not one a store: a store's own timer made opening a suite pay for a
/// Dispatch source (resuming wakes Dispatch's manager thread), and many suites meant
/// many timers. It runs for the rest of the process; each poll is queued on its store's
/// queue, so a busy store holds up no other.
enum FilePoller {
  private struct Polled {
    /// Held strongly: a weak reference would give each store a side table, which sends
    /// every retain and release of it (one pair per read) down the runtime's slow path.
    var stores: [ObjectIdentifier: FileStore] = [:]
    var timer: DispatchSourceTimer?
  }
  private static let polled = Lock(Polled())

  /// Called with the store's state locked, so it cannot cross a ``stopPolling(_:)``.
  static func startPolling(_ store: FileStore) {
    polled.withLock { $0.stores[ObjectIdentifier(store)] = store }
  }

  /// Called with the store's state locked.
  static func stopPolling(_ store: FileStore) {
    polled.withLock { $0.stores[ObjectIdentifier(store)] = nil }
  }

  /// Starts the timer if there is none; outside the stores' locks, as it reaches Dispatch.
  static func run() {
    let made = polled.withLock { polled -> DispatchSourceTimer? in
      guard polled.timer == nil else { return nil }
      let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
      polled.timer = timer
      return timer
    }
    guard let made else { return }
    let interval = DeferredFlush.dispatchInterval(PreferencesStore.pollInterval)
    made.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(20))
    made.setEventHandler { poll() }
    made.resume()
  }

  private static func poll() {
    let stores = polled.withLock { Array($0.stores.values) }
    for store in stores { store.pollFile() }
  }
}

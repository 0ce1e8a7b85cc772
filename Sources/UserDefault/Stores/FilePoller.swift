import Dispatch
import PropertyListCodec

/// Polls the file of every ``FileStore`` that has live objects, on one timer for the
/// whole process, every `PreferencesStore.pollInterval` (200 ms).
///
/// One timer rather than one a store: a store's own timer cost its first object a Dispatch
/// source made and resumed (resuming wakes Dispatch's manager thread) and its last object a
/// cancel, a few percent of opening a 1,000-key suite, and a process with many suites had
/// as many timers firing. The shared timer is made with the first store and runs for the
/// rest of the process; with no store to poll it does nothing. Each poll is queued on its
/// store's own queue (``FileStore/pollFile()``), so a store that is busy holds up no other.
enum FilePoller {
  private struct Polled {
    /// Held strongly: a weak reference would give each store a side table, which sends
    /// every retain and release of it (one pair per read) down the runtime's slow path.
    var stores: [ObjectIdentifier: FileStore] = [:]
    var timer: DispatchSourceTimer?
  }
  private static let polled = Lock(Polled())

  /// Starts polling `store`. Called with the store's state locked, so that it cannot
  /// cross a ``stopPolling(_:)`` of the same store.
  static func startPolling(_ store: FileStore) {
    polled.withLock { $0.stores[ObjectIdentifier(store)] = store }
  }

  /// Stops polling `store`; called with the store's state locked.
  static func stopPolling(_ store: FileStore) {
    polled.withLock { $0.stores[ObjectIdentifier(store)] = nil }
  }

  /// Makes and starts the timer if there is none yet. Called outside the stores' locks:
  /// starting it reaches Dispatch.
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

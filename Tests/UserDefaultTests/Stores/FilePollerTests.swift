import Dispatch
import Testing

@testable import UserDefault

/// Regression (#46 item 12): the poll timer ran every 200 ms for the rest of the process,
/// after every store had gone. It stops at the first poll that finds no store, and the next
/// store to start polling starts a new one.
@Suite struct FilePollerTests {
  @Test func theTimerStopsWhenNoStoreIsPolledAndStartsAgainForTheNext() throws {
    let stops = DispatchSemaphore(value: 0)
    let poller = FilePoller(interval: .milliseconds(10), stopped: { stops.signal() })
    let directory = TemporaryDirectory()
    let store = try PreferencesStore(suiteName: "poller", directory: directory.path)
    for _ in 0..<2 {
      poller.startPolling(store.fileStore)
      poller.run()
      #expect(poller.isRunning)
      poller.stopPolling(store.fileStore)
      // An event the poller sends, waited for with a bound rather than a sleep.
      #expect(stops.wait(timeout: .now() + 30) == .success, "the timer kept running")
      #expect(!poller.isRunning)
    }
  }

  @Test func theTimerRunsWhileAStoreIsPolled() throws {
    let stops = DispatchSemaphore(value: 0)
    let poller = FilePoller(interval: .milliseconds(1), stopped: { stops.signal() })
    let directory = TemporaryDirectory()
    let store = try PreferencesStore(suiteName: "poller", directory: directory.path)
    poller.startPolling(store.fileStore)
    poller.run()
    // Many intervals pass; the timer stays while the store is polled.
    #expect(stops.wait(timeout: .now() + .milliseconds(100)) == .timedOut)
    #expect(poller.isRunning)
    poller.stopPolling(store.fileStore)
    #expect(stops.wait(timeout: .now() + 30) == .success)
  }
}

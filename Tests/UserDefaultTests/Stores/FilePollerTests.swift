import Dispatch
import Testing

@testable import UserDefault

/// Regression (#46 item 12): the poll timer ran every 200 ms for the rest of the process,
/// after every store had gone. It stops at the first poll that finds no store, and the next
/// store to start polling starts a new one. Waits are for the poller's own signals, bounded.
@Suite struct FilePollerTests {
  /// A poller every `interval` whose polls and stop signal `polls` and `stops`.
  static func poller(
    _ interval: Duration, polls: DispatchSemaphore, stops: DispatchSemaphore
  ) -> FilePoller {
    FilePoller(interval: interval) { event in
      switch event {
      case .polled: polls.signal()
      case .stopped: stops.signal()
      }
    }
  }

  @Test func theTimerStopsWhenNoStoreIsPolledAndStartsAgainForTheNext() throws {
    let (polls, stops) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let poller = Self.poller(.milliseconds(10), polls: polls, stops: stops)
    let directory = TemporaryDirectory()
    let store = try PreferencesStore(suiteName: "poller", directory: directory.path)
    for _ in 0..<2 {
      poller.startPolling(store.fileStore)
      poller.run()
      #expect(poller.isRunning)
      poller.stopPolling(store.fileStore)
      #expect(stops.wait(timeout: .now() + 30) == .success, "the timer kept running")
      #expect(!poller.isRunning)
    }
  }

  @Test func theTimerRunsWhileAStoreIsPolled() throws {
    let (polls, stops) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let poller = Self.poller(.milliseconds(1), polls: polls, stops: stops)
    let directory = TemporaryDirectory()
    let store = try PreferencesStore(suiteName: "poller", directory: directory.path)
    poller.startPolling(store.fileStore)
    poller.run()
    for _ in 0..<3 { #expect(polls.wait(timeout: .now() + 30) == .success) }
    #expect(poller.isRunning)
    poller.stopPolling(store.fileStore)
    #expect(stops.wait(timeout: .now() + 30) == .success)
    #expect(!poller.isRunning)
  }
}

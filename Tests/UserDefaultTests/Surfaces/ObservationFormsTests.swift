import DefaultEntry
import Foundation
import Observation
import SafeDefaultsKit
import Testing

@testable import UserDefault

extension UserDefaults {
  @DefaultEntry("observed.entry", default: 0)
  var observedEntry: Int
}

/// Every form of observation (callback, async sequence, Observation framework, projected
/// value) against every write path (each surface, reset, removal, a second instance, another
/// process).
@Suite("Observation forms and write paths")
struct ObservationFormsTests {
  /// The four forms attached to one key, each recording the values it was told about.
  final class Watchers: Sendable {
    let callbackValues = Recorder<Int>()
    let projectedValues = Recorder<Int>()
    let trackingFired = Counter()
    let observations: [DefaultsObservation]
    let stream: AsyncStream<Int>

    init(_ defaults: UserDefaults, _ key: UserDefaults.Key<Int>) {
      let callbackValues = self.callbackValues
      let projectedValues = self.projectedValues
      observations = [
        defaults.observe(key) { change in callbackValues.append(change.newValue) },
        UserDefault(key, defaults: defaults).projectedValue.observe { change in
          projectedValues.append(change.newValue)
        },
      ]
      stream = defaults.updates(key, initial: false)
    }

    /// Arms the Observation framework for the next change of `key`.
    func track(_ defaults: UserDefaults, _ key: UserDefaults.Key<Int>) {
      let fired = trackingFired
      withObservationTracking {
        _ = defaults[key]
      } onChange: {
        fired.increment()
      }
    }
  }

  struct Write: Sendable, CustomStringConvertible {
    let description: String
    let expected: Int
    let perform: @Sendable (_ suiteName: String, _ key: UserDefaults.Key<Int>) -> Void
  }

  struct Books: SafeDefaults {
    enum Keys: String, DefaultsKey { case observed }
    let userDefaults: UserDefaults
  }

  /// Writes through each surface, in order; `expected` is the value each leaves.
  static let writes: [Write] = [
    Write(description: "typed key", expected: 1) { suite, key in
      UserDefaults(suiteName: suite)![key] = 1
    },
    Write(description: "@UserDefault string key", expected: 2) { suite, key in
      UserDefault<Int>(key.name, defaultValue: 0, defaults: UserDefaults(suiteName: suite)!)
        .wrappedValue = 2
    },
    Write(description: "UserDefaultsWrapper", expected: 3) { suite, key in
      UserDefaultsWrapper<Int>(
        key: key.name, default: 0, userDefaults: UserDefaults(suiteName: suite)!
      )
      .wrappedValue = 3
    },
    Write(description: "SafeDefaults", expected: 4) { suite, _ in
      Books(userDefaults: UserDefaults(suiteName: suite)!).set(4, forKey: .observed)
    },
    Write(description: "macro entry", expected: 5) { suite, _ in
      UserDefaults(suiteName: suite)!.observedEntry = 5
    },
    Write(description: "key-path wrapper", expected: 6) { suite, _ in
      UserDefault(\.observedEntry, defaults: UserDefaults(suiteName: suite)!).wrappedValue = 6
    },
    Write(description: "reset", expected: 0) { suite, key in
      UserDefaults(suiteName: suite)!.reset(key)
    },
    Write(description: "untyped store", expected: 7) { suite, key in
      try? UserDefaults(suiteName: suite)!.store(7, forKey: key.name)
    },
    Write(description: "removal", expected: 0) { suite, key in
      UserDefaults(suiteName: suite)!.removeValue(forKey: key.name)
    },
  ]

  @Test func everyFormHearsEverySurfaceThroughAnotherInstance() async {
    let suite = TestSuite()
    // All surfaces above share the stored name "observed.entry" (SafeDefaults' raw value
    // differs, so it gets its own key below).
    let key = UserDefaults.Key<Int>("observed.entry", default: 0)
    let safeKey = UserDefaults.Key<Int>("observed", default: 0)
    let watchers = Watchers(suite.defaults, key)
    let safeWatchers = Watchers(suite.defaults, safeKey)
    var iterator = watchers.stream.makeAsyncIterator()
    var safeIterator = safeWatchers.stream.makeAsyncIterator()
    var expectedValues: [Int] = []
    var trackingCount = 0
    for write in Self.writes {
      let isSafe = write.description == "SafeDefaults"
      let target = isSafe ? safeWatchers : watchers
      target.track(suite.defaults, isSafe ? safeKey : key)
      write.perform(suite.name, key)
      // Local writes are delivered on the writing thread before the write returns.
      if isSafe {
        #expect(safeWatchers.callbackValues.all == [4])
        #expect(await safeIterator.next() == 4)
        #expect(safeWatchers.trackingFired.value == 1)
        continue
      }
      expectedValues.append(write.expected)
      trackingCount += 1
      #expect(watchers.callbackValues.all == expectedValues, "\(write)")
      #expect(watchers.projectedValues.all == expectedValues, "\(write)")
      #expect(await iterator.next() == write.expected, "\(write)")
      #expect(watchers.trackingFired.value == trackingCount, "\(write)")
    }
  }

  @Test(.linuxFiles) func everyFormHearsAnotherProcessWithinABound() async throws {
    let directory = TemporaryDirectory()
    Diagnostics.installRecorder()
    let store = try PreferencesStore(suiteName: "observed", directory: directory.path)
    let key = UserDefaults.Key<Int>("child.0", default: -1)
    let callback = DispatchSemaphore(value: 0)
    let projected = DispatchSemaphore(value: 0)
    let tracked = DispatchSemaphore(value: 0)
    let observation = store.observe(key) { if $0.newValue == 0 { callback.signal() } }
    let projection = UserDefault(key, defaults: store).projectedValue.observe {
      if $0.newValue == 0 { projected.signal() }
    }
    withObservationTracking {
      _ = store[key]
    } onChange: {
      tracked.signal()
    }
    let stream = store.updates(key, initial: false)

    let child = try ChildProcess.run(
      "UserDefaultTestHelper", ["store-write", "observed", "child", "1"],
      environment: ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path])
    #expect(child.status == 0)

    // The engine polls the file every PreferencesStore.pollInterval (200 ms); 10 s bounds it.
    #expect(callback.wait(timeout: .now() + 10) == .success)
    #expect(projected.wait(timeout: .now() + 10) == .success)
    #expect(tracked.wait(timeout: .now() + 10) == .success)
    #expect(await first(of: stream, within: .seconds(10)) == 0)
    observation.cancel()
    projection.cancel()
  }

  @Test func severalKeysAtOnceYieldTheNamesThatChanged() async {
    let store = PreferencesStore.inMemory()
    let a = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let b = UserDefaults.Key<String>(uniqueKey(), default: "")
    let other = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    var iterator = store.updates([a, b]).makeAsyncIterator()
    #expect(await iterator.next() == a.name)
    #expect(await iterator.next() == b.name)
    store[other] = 1
    store[b] = "x"
    store[a] = 2
    #expect(await iterator.next() == b.name)
    #expect(await iterator.next() == a.name)
  }

  @Test func severalKeysSequenceStopsListeningWhenTheTaskIsCancelled() async {
    let store = PreferencesStore.inMemory()
    let a = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let updates = store.updates([a])
    let (started, signal) = AsyncStream<Void>.makeStream()
    let task = Task {
      for await _ in updates { signal.yield() }
    }
    #expect(await first(of: started, within: .seconds(10)) != nil)
    #expect(store.access.suite.hub.hasListeners(for: a.name))
    task.cancel()
    await task.value
    #expect(!store.access.suite.hub.hasListeners(for: a.name))
  }

  @Test func withoutPropagationSilencesCallbacksButNotStorageOrTracking() {
    let store = PreferencesStore.inMemory()
    let key = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let heard = Recorder<Int>()
    let observation = store.observe(key) { change in heard.append(change.newValue) }
    let tracked = Counter()
    withObservationTracking {
      _ = store[key]
    } onChange: {
      tracked.increment()
    }
    store.withoutPropagation { store[key] = 1 }
    #expect(store[key] == 1)
    #expect(heard.all.isEmpty)
    #expect(tracked.value == 1)
    store[key] = 2
    #expect(heard.all == [2])
    observation.cancel()
  }

  @Test func observerThatWritesBackInsideWithoutPropagationDoesNotLoop() {
    let store = PreferencesStore.inMemory()
    let key = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let calls = Counter()
    // UserDefaults is thread-safe but not marked Sendable.
    nonisolated(unsafe) let captured = store
    let observation = store.observe(key) { change in
      calls.increment()
      captured.withoutPropagation { captured[key] = change.newValue * 10 }
    }
    store[key] = 1
    #expect(store[key] == 10)
    #expect(calls.value == 1)
    observation.cancel()
  }

  @Test func projectedObservationIsReleasedAndStops() {
    let suite = TestSuite()
    let heard = Recorder<Int>()
    weak var released: DefaultsObservation?
    do {
      let observation = UserDefault(\.observedEntry, defaults: suite.defaults).projectedValue
        .observe { change in heard.append(change.newValue) }
      released = observation
      suite.defaults.observedEntry = 1
    }
    #expect(released == nil)
    suite.defaults.observedEntry = 2
    #expect(heard.all == [1])
  }

  @Test func plainWritesAnnouncedByDidChangeNotificationReachObservers() {
    let suite = TestSuite()
    let key = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let heard = Recorder<Int>()
    let observation = suite.defaults.observe(key) { change in
      heard.append(change.newValue)
    }
    // A plain Foundation call bypasses the library; Darwin then posts the notification
    // (Linux does not, so the test posts it as Darwin would).
    suite.defaults.set(5, forKey: key.name)
    NotificationCenter.default.post(
      name: UserDefaults.didChangeNotification, object: suite.defaults)
    #expect(heard.all == [5])
    // A library write followed by the notification Darwin would post is delivered once.
    suite.defaults[key] = 6
    NotificationCenter.default.post(
      name: UserDefaults.didChangeNotification, object: suite.defaults)
    #expect(heard.all == [5, 6])
    // A notification from another suite changes nothing here.
    let other = TestSuite()
    suite.defaults.set(7, forKey: key.name)
    NotificationCenter.default.post(
      name: UserDefaults.didChangeNotification, object: other.defaults)
    #expect(heard.all == [5, 6])
    observation.cancel()
  }
}

/// The first element of `stream`, or `nil` when none arrives within `limit`.
func first<Element: Sendable>(of stream: AsyncStream<Element>, within limit: Duration) async
  -> Element?
{
  await withTaskGroup(of: Element?.self) { group in
    group.addTask {
      for await element in stream { return element }
      return nil
    }
    group.addTask {
      try? await Task.sleep(for: limit)  // the bound, not the wait: the other task ends first
      return nil
    }
    let result = await group.next() ?? nil
    group.cancelAll()
    return result
  }
}

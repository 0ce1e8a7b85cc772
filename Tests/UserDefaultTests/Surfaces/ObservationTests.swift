import Foundation
import Observation
import Testing

@testable import UserDefault

@Suite("Observing changes")
struct ObservationTests {
  @Test func callbackHearsWritesResetsRemovalsAndOtherInstances() {
    let suite = TestSuite()
    let key = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let recorder = Recorder<[Int]>()
    let observation = suite.defaults.observe(key) { recorder.append([$0.oldValue, $0.newValue]) }
    suite.defaults[key] = 1
    suite.defaults[key] = 1  // equal: not a change
    UserDefaults(suiteName: suite.name)![key] = 2
    suite.defaults.reset(key)
    suite.defaults[key] = 3
    suite.defaults.removeValue(forKey: key.name)
    #expect(recorder.all == [[0, 1], [1, 2], [2, 0], [0, 3], [3, 0]])
    observation.cancel()
    suite.defaults[key] = 4
    #expect(recorder.all.count == 5, "no delivery after cancel")
  }

  @Test func wrappersAndStoreWritesReachObservers() {
    let store = PreferencesStore.inMemory()
    let key = UserDefaults.Key<String>(uniqueKey(), default: "")
    let recorder = Recorder<String>()
    let observation = store.observe(key, initial: true) { recorder.append($0.newValue) }
    UserDefaultsWrapper<String>(key: key.name, default: "", userDefaults: store).wrappedValue = "w"
    store.set("plain", forKey: key.name)
    #expect(recorder.all == ["", "w", "plain"])
    _ = observation
  }

  @Test("Observers of one key share a decode but keep their own defaults, and leave one by one")
  func observersOfOneKeyKeepTheirOwnDefaults() {
    let store = PreferencesStore.inMemory()
    let name = uniqueKey()
    let zero = UserDefaults.Key<Int>(name, default: 0)
    let minusOne = UserDefaults.Key<Int>(name, default: -1)
    let heardByZero = Recorder<[Int]>()
    let heardByMinusOne = Recorder<[Int]>()
    let first = store.observe(zero) { heardByZero.append([$0.oldValue, $0.newValue]) }
    let second = store.observe(minusOne) { heardByMinusOne.append([$0.oldValue, $0.newValue]) }
    store[zero] = 5
    store.reset(zero)
    #expect(heardByZero.all == [[0, 5], [5, 0]])
    #expect(heardByMinusOne.all == [[-1, 5], [5, -1]])
    store[zero] = 8
    store[zero] = 9  // both sides stored: both observers hear the stored values
    #expect(heardByZero.all.suffix(2) == [[0, 8], [8, 9]])
    #expect(heardByMinusOne.all.suffix(2) == [[-1, 8], [8, 9]])
    first.cancel()
    store.reset(zero)
    store[zero] = 6
    #expect(heardByZero.all.count == 4)
    #expect(heardByMinusOne.all.last == [-1, 6])
    #expect(store.access.suite.hub.hasListeners(for: name))
    second.cancel()
    #expect(!store.access.suite.hub.hasListeners(for: name))
    #expect(store.access.suite.observerGroups.withLock { $0.isEmpty })
    // A new observer after the group went makes a new one.
    let third = store.observe(zero) { heardByZero.append([$0.oldValue, $0.newValue]) }
    store[zero] = 7
    #expect(heardByZero.all.last == [6, 7])
    third.cancel()
  }

  @Test func releasingTheObservationStopsIt() {
    let store = PreferencesStore.inMemory()
    let key = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let recorder = Recorder<Int>()
    weak var released: DefaultsObservation?
    do {
      let observation = store.observe(key) { recorder.append($0.newValue) }
      released = observation
      store[key] = 1
    }
    #expect(released == nil)
    store[key] = 2
    #expect(recorder.all == [1])
  }

  @Test func updatesYieldCurrentValueThenChanges() async {
    let store = PreferencesStore.inMemory()
    let key = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    var iterator = store.updates(key).makeAsyncIterator()
    #expect(await iterator.next() == 0)
    store[key] = 1
    store[key] = 2
    #expect(await iterator.next() == 1)
    #expect(await iterator.next() == 2)
  }

  @Test func cancellingTheTaskEndsTheSequence() async {
    // UserDefaults is thread-safe but not marked Sendable.
    nonisolated(unsafe) let store = PreferencesStore.inMemory()
    let key = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let task = Task {
      var seen = 0
      for await _ in store.updates(key) { seen += 1 }
      return seen
    }
    task.cancel()
    let seen = await task.value
    #expect(seen <= 1)
    #expect(!store.access.suite.hub.hasListeners(for: key.name))
  }

  @Test func observationTrackingIsPerKey() {
    let store = PreferencesStore.inMemory()
    let tracked = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let other = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let fired = Counter()
    withObservationTracking {
      _ = store[tracked]
    } onChange: {
      fired.increment()
    }
    store[other] = 1
    #expect(fired.value == 0)
    store[tracked] = 1
    #expect(fired.value == 1)
  }

  @Test("8 threads write while observers are added and cancelled")
  func concurrentWritesAndObservers() async {
    // UserDefaults is thread-safe but not marked Sendable.
    nonisolated(unsafe) let store = PreferencesStore.inMemory()
    let key = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    await withTaskGroup(of: Void.self) { group in
      for thread in 0..<8 {
        group.addTask {
          for index in 0..<500 {
            store[key] = thread * 1000 + index
            if index % 50 == 0 {
              let observation = store.observe(key) { _ in }
              observation.cancel()
            }
            _ = store[key]
            if index % 7 == 0 { store.reset(key) }
          }
        }
      }
    }
    #expect(!store.access.suite.hub.hasListeners(for: key.name))
  }
}

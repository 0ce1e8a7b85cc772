import Foundation
import Observation
import Testing

@testable import PropertyListCodec
@testable import UserDefault

/// A model as an app writes one: its stored preference is ignored by the macro and tracked
/// by the library.
@Observable
final class PlayerModel {
  @ObservationIgnored @UserDefault var volume: Int

  init(_ key: UserDefaults.Key<Int>, defaults: UserDefaults) {
    _volume = UserDefault(key, defaults: defaults)
  }
}

/// A Foundation instance whose `set` can stop once, after Foundation stored the value and
/// before the library records the write: a write another thread makes at that moment.
final class GatedDefaults: UserDefaults {
  let stored = DispatchSemaphore(value: 0)
  let resume = DispatchSemaphore(value: 0)
  private let isArmed = Lock(false)
  let suiteName: String

  override init?(suiteName: String?) {
    self.suiteName = suiteName ?? ""
    super.init(suiteName: suiteName)
  }

  /// The next `set` signals `stored` and waits for `resume`.
  func stopOnce() { isArmed.withLock { $0 = true } }

  override func set(_ value: Any?, forKey defaultName: String) {
    super.set(value, forKey: defaultName)
    let stops = isArmed.withLock { isArmed in
      defer { isArmed = false }
      return isArmed
    }
    guard stops else { return }
    stored.signal()
    resume.wait()
  }
}

/// The Observation framework follows the rule callbacks follow: a write of the value readers
/// see is no change. Each test reads through one object of a suite and writes through a
/// second, on every backend.
@Suite("Equal writes and the Observation framework")
struct EqualWriteObservationTests {
  /// Two objects of one fresh suite. On Apple platforms one Foundation object twice: each
  /// instance there has a backend of its own, whose trackers hear another instance's writes
  /// only while a callback observes the key.
  func makeSuite(_ kind: BackendKind) -> (
    first: UserDefaults, second: UserDefaults, keepAlive: AnyObject
  ) {
    let (a, b, keepAlive) = kind.makeSuite()
    #if canImport(Darwin)
      if kind == .foundation { return (a, a, keepAlive) }
    #endif
    return (a, b, keepAlive)
  }

  /// Reads `read` inside `withObservationTracking`; the counter counts `onChange` calls.
  func track<Value>(_ read: () -> Value) -> (value: Value, fired: Counter) {
    let fired = Counter()
    let value = withObservationTracking(read) { fired.increment() }
    return (value, fired)
  }

  @Test(
    "A write of the value a tracked reader saw fires nothing; another value fires once",
    arguments: BackendKind.allCases)
  func equalWriteThroughEverySurfaceFiresNothing(_ kind: BackendKind) {
    let (a, b, keepAlive) = makeSuite(kind)
    let key = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let writes: [(String, @Sendable (UserDefaults, Int) -> Void)] = [
      ("typed key", { $0[key] = $1 }),
      (
        "@UserDefault string key",
        { UserDefault(key.name, defaultValue: 0, defaults: $0).wrappedValue = $1 }
      ),
      ("@UserDefault typed key", { UserDefault(key, defaults: $0).wrappedValue = $1 }),
      (
        "UserDefaultsWrapper",
        { UserDefaultsWrapper(key: key.name, default: 0, userDefaults: $0).wrappedValue = $1 }
      ),
      ("untyped store", { try? $0.store($1, forKey: key.name) }),
    ]
    var value = 0
    for (surface, write) in writes {
      write(b, value + 1)
      value += 1
      let tracked = track { a[key] }
      #expect(tracked.value == value, "\(surface)")
      write(b, value)
      #expect(tracked.fired.value == 0, "\(surface): an equal write")
      write(b, value + 1)
      value += 1
      #expect(tracked.fired.value == 1, "\(surface): a new value")
    }
    withExtendedLifetime(keepAlive) {}
  }

  @Test(
    "An @Observable model's ignored preference: volume = 9 when it reads 9 redraws nothing",
    arguments: BackendKind.allCases)
  func observableModelWritingWhatItReads(_ kind: BackendKind) {
    let (a, b, keepAlive) = makeSuite(kind)
    let key = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let reader = PlayerModel(key, defaults: a)
    let writer = PlayerModel(key, defaults: b)
    writer.volume = 9
    let tracked = track { reader.volume }
    #expect(tracked.value == 9)
    writer.volume = 9
    reader.volume = 9
    #expect(tracked.fired.value == 0)
    writer.volume = 10
    #expect(tracked.fired.value == 1)
    #expect(reader.volume == 10)
    withExtendedLifetime(keepAlive) {}
  }

  @Test(
    "Removing a value that is not there fires nothing; removing one that is fires",
    arguments: BackendKind.allCases)
  func removals(_ kind: BackendKind) {
    let (a, b, keepAlive) = makeSuite(kind)
    let key = UserDefaults.Key<Int?>(uniqueKey())
    let absent = track { a[key] }
    #expect(absent.value == nil)
    b.removeValue(forKey: key.name)
    b[key] = nil
    #expect(absent.fired.value == 0)
    b[key] = 3
    #expect(absent.fired.value == 1)
    let present = track { a[key] }
    b.removeValue(forKey: key.name)
    #expect(present.fired.value == 1)
    withExtendedLifetime(keepAlive) {}
  }

  @Test(
    "After a plain Foundation write the library read, a write of the older value still fires",
    arguments: BackendKind.allCases)
  func plainWriteThenLibraryRead(_ kind: BackendKind) {
    let (a, b, keepAlive) = makeSuite(kind)
    let key = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    b[key] = 5
    let first = track { a[key] }
    #expect(first.value == 5)
    // Not through the library: Foundation on Linux tells no one of it.
    b.set(7, forKey: key.name)
    let second = track { a[key] }
    #expect(second.value == 7)
    b[key] = 5
    #expect(second.fired.value == 1)
    #expect(a[key] == 5)
    withExtendedLifetime(keepAlive) {}
  }

  /// The record of 1e85446 kept the value last read, so it took 1 for every reader here.
  @Test(
    "Readers handed different values by plain sets in between are told of the next write",
    arguments: BackendKind.allCases)
  func plainSetsBackAndForth(_ kind: BackendKind) {
    let (a, b, keepAlive) = makeSuite(kind)
    let key = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    b[key] = 1
    let first = track { a[key] }
    #expect(first.value == 1)
    b.set(2, forKey: key.name)
    let second = track { a[key] }
    #expect(second.value == 2)
    b.set(1, forKey: key.name)
    // The store goes from 1 to 2: the first reader holds 1.
    b[key] = 2
    #expect(first.fired.value == 1)
    withExtendedLifetime(keepAlive) {}
  }

  /// A write that callbacks hear nothing of (Foundation held its value) still records it as
  /// every reader's: before 95a3934 was reviewed, the trackers were not told of it, so the
  /// last write here was kept silent.
  @Test(
    "A write Foundation held already, heard by no callback, still tells a reader handed another value"
  )
  func observedWriteOfTheValueFoundationHeld() {
    let suite = TestSuite()
    let defaults = suite.defaults
    let key = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    defaults[key] = 1
    let tracked = track { defaults[key] }
    #expect(tracked.value == 1)
    defaults.set(2, forKey: key.name)
    let observation = defaults.observe(key) { _ in }
    defaults[key] = 2
    observation.cancel()
    defaults.set(1, forKey: key.name)
    defaults[key] = 2
    #expect(defaults[key] == 2)
    #expect(tracked.fired.value == 1, "the reader holds 1, the store 2")
  }

  /// An unobserved write stops after Foundation's `set`; meanwhile a callback observer is
  /// added and an observed write of the same value finds it in Foundation. Before 95a3934
  /// was reviewed, neither told the reader.
  @Test("Two writes of one value, one observed and one not, overlapping: the reader is told")
  func overlappingObservedAndUnobservedWrites() {
    let defaults = GatedDefaults(suiteName: "UserDefaultTests.Gated." + UUID().uuidString)!
    defer { defaults.removePersistentDomain(forName: defaults.suiteName) }
    // UserDefaults is thread-safe but not marked Sendable.
    nonisolated(unsafe) let shared = defaults
    let key = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    defaults[key] = 1
    let tracked = track { defaults[key] }
    #expect(tracked.value == 1)
    defaults.stopOnce()
    let done = DispatchSemaphore(value: 0)
    Thread {
      shared[key] = 2
      done.signal()
    }.start()
    defaults.stored.wait()
    let observation = defaults.observe(key) { _ in }
    defaults[key] = 2
    defaults.resume.signal()
    done.wait()
    observation.cancel()
    #expect(defaults[key] == 2)
    #expect(tracked.fired.value == 1, "the reader holds 1, the store 2")
  }

  /// In a child: the test process does not save Foundation suites (``Diagnostics``).
  @Test(
    "Another process's value, taken from the file by the watch or by a run, tells the framework, on a Foundation instance",
    .linuxFiles)
  func valueTakenFromTheFileInARunIsTold() throws {
    let directory = TemporaryDirectory()
    let child = try ChildProcess.run(
      "UserDefaultTestHelper", ["tracked-run", "tracked"],
      environment: ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path])
    #expect(child.status == 0, "\(child.error)")
    // It read 1; the watch or the run found 5 in the file, and the run wrote 5.
    #expect(child.output == "1 5 told\n")
  }

  @Test(
    "Two threads writing one key while a third tracks it: no tracked reader is left with a value it was not told changed",
    arguments: BackendKind.allCases)
  /// A smoke test of the rule under threads, under the thread sanitizer too; the
  /// interleavings themselves are tested one by one in `SeenValuesTests`.
  func concurrentWritersNeverLeaveATrackerUntold(_ kind: BackendKind) {
    let (a, b, keepAlive) = makeSuite(kind)
    let key = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let registrations = Lock<[(value: Int, fired: Counter)]>([])
    // UserDefaults is thread-safe but not marked Sendable.
    nonisolated(unsafe) let (reader, writer) = (a, b)
    let group = DispatchGroup()
    for writerIndex in 0..<2 {
      DispatchQueue.global().async(group: group) {
        for index in 0..<1_000 { writer[key] = (index + writerIndex) % 3 }
      }
    }
    DispatchQueue.global().async(group: group) {
      for _ in 0..<1_000 {
        let fired = Counter()
        let value = withObservationTracking {
          reader[key]
        } onChange: {
          fired.increment()
        }
        // The framework listens only once the block returns: a write between the read and
        // then is not told (its window, on every backend), so such a reader is left out.
        guard reader[key] == value else { continue }
        registrations.withLock { $0.append((value, fired)) }
      }
    }
    group.wait()
    let settled = a[key]
    let untold = registrations.withLock { $0.filter { $0.fired.value == 0 && $0.value != settled } }
    #expect(untold.isEmpty, "\(untold.count) readers hold a value other than \(settled)")
    withExtendedLifetime(keepAlive) {}
  }
}

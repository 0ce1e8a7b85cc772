import Foundation
import Testing

@testable import PropertyListCodec
@testable import UserDefault

@Suite("The library's preferences store")
struct PreferencesStoreTests {
  func makeStore(_ directory: TemporaryDirectory, _ suite: String = "app") throws
    -> PreferencesStore
  {
    Diagnostics.installRecorder()
    return try PreferencesStore(suiteName: suite, directory: directory.path)
  }

  @Test func writesAreVisibleAtOnceAndDurableAfterFlush() throws {
    let directory = TemporaryDirectory()
    let store = try makeStore(directory)
    store.set(5, forKey: "count")
    #expect(store.integer(forKey: "count") == 5)
    try store.flush()
    let data = try #require(FileManager.default.contents(atPath: directory.path + "/app.plist"))
    let plist =
      try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
    #expect(plist?["count"] as? Int == 5)
  }

  @Test("A removed preferences directory is not made again until there is something to write")
  func removedDirectoryComesBackOnlyWithAWrite() throws {
    let directory = TemporaryDirectory()
    let preferences = directory.path + "/preferences"
    let store = try PreferencesStore(suiteName: "app", directory: preferences)
    store.set(5, forKey: "count")
    try store.flush()
    try FileManager.default.removeItem(atPath: preferences)
    store.fileStore.reloadFromDisk()  // what the poll does
    try store.flush()
    #expect(!FileManager.default.fileExists(atPath: preferences))
    #expect(store.object(forKey: "count") == nil, "the file is gone, so its values are")
    store.set(6, forKey: "count")
    try store.flush()
    let file = try #require(store.filePath)
    let written =
      try PropertyListSerialization.propertyList(
        from: try Data(contentsOf: URL(fileURLWithPath: file)), format: nil) as? [String: Any]
    #expect(written?["count"] as? Int == 6)
  }

  @Test func backgroundFlushHappensWithinTheWindow() throws {
    let directory = TemporaryDirectory()
    let store = try makeStore(directory)
    store.set("x", forKey: "k")
    #expect(waitForStoredValue(of: "k", in: directory.path + "/app.plist") as? String == "x")
  }

  @Test("A flush with nothing to write, of a file as the store read it, takes no lock")
  func flushWithNothingToWriteTakesNoLock() throws {
    let directory = TemporaryDirectory()
    let path = directory.path + "/app.plist"
    try PropertyListSerialization.data(fromPropertyList: ["kept": 1], format: .xml, options: 0)
      .write(to: URL(fileURLWithPath: path))
    let store = try makeStore(directory)
    #expect(store.integer(forKey: "kept") == 1)
    try store.flush()
    #expect(!FileManager.default.fileExists(atPath: path + ".lock"), "a lock file was made")
    store.set(2, forKey: "kept")
    try store.flush()  // a write still takes the lock
    #expect(FileManager.default.fileExists(atPath: path + ".lock"))
  }

  @Test("A write after an explicit flush rides on the flush already queued, and lands")
  func writeAfterAnExplicitFlushIsFlushedByTheQueuedOne() throws {
    let directory = TemporaryDirectory()
    let store = try PreferencesStore(
      suiteName: "app", directory: directory.path, flushWindow: .milliseconds(50))
    store.set(1, forKey: "first")  // queues a flush
    try store.flush()  // takes "first"; the queued flush stays queued
    store.set(2, forKey: "second")  // queues nothing: rides on the queued flush
    #expect(waitForStoredValue(of: "second", in: directory.path + "/app.plist") as? Int == 2)
  }

  @Test("A background flush that failed is tried again while its changes wait")
  func failedBackgroundFlushIsTriedAgain() throws {
    Diagnostics.installRecorder()
    let parent = TemporaryDirectory()
    let preferences = parent.path + "/preferences"
    // A file where the preferences directory should be: every flush fails until it goes.
    #expect(FileManager.default.createFile(atPath: preferences, contents: Data()))
    let suite = "retry-\(UUID().uuidString)"
    let store = try PreferencesStore(
      suiteName: suite, directory: preferences, flushWindow: .milliseconds(20))
    store.set(1, forKey: "kept")
    let reported = waitUntil {
      !Diagnostics.events(where: { $0.suite == suite && $0.kind == .failedSave }).isEmpty
    }
    #expect(reported, "the background flush's failure was not reported")
    try FileManager.default.removeItem(atPath: preferences)
    // No new write and no explicit flush: only a retry can save the value.
    #expect(waitForStoredValue(of: "kept", in: preferences + "/\(suite).plist") as? Int == 1)
  }

  @Test("A store whose queue is busy holds up no other store's poll")
  func busyStoreDoesNotHoldUpOtherPolls() throws {
    let directory = TemporaryDirectory()
    let busy = try PreferencesStore(suiteName: "busy", directory: directory.path)
    let polled = try PreferencesStore(suiteName: "polled", directory: directory.path)
    let polledFile = URL(fileURLWithPath: directory.path + "/polled.plist")
    // `busy`'s queue stays held (as by a migration waiting on another process's lock)
    // until the end of the test.
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let busyEngine = busy.fileStore
    let holder = Thread {
      _ = try? busyEngine.exclusively { _ in
        entered.signal()
        release.wait()
      }
    }
    holder.start()
    entered.wait()
    defer { release.signal() }
    // Two changes from outside, each seen before the next is made: whichever of the two
    // stores a shared poll reaches first, waiting on `busy` would hide one of them.
    for round in 1...2 {
      try PropertyListSerialization.data(
        fromPropertyList: ["round": round], format: .xml, options: 0
      ).write(to: polledFile, options: .atomic)
      let isTakenIn = waitUntil { polled.integer(forKey: "round") == round }
      #expect(isTakenIn, "change \(round) was not taken in")
    }
  }

  @Test("A shorter window asked for later holds even while a longer window's flush is queued")
  func laterShorterWindowIsNotHeldBackByAQueuedFlush() throws {
    let directory = TemporaryDirectory()
    let slow = try PreferencesStore(
      suiteName: "app", directory: directory.path, flushWindow: .seconds(3600))
    slow.set(1, forKey: "first")  // queues a flush an hour away
    try slow.flush()
    let fast = try PreferencesStore(
      suiteName: "app", directory: directory.path, flushWindow: .milliseconds(50))
    fast.set(2, forKey: "second")
    #expect(waitForStoredValue(of: "second", in: directory.path + "/app.plist") as? Int == 2)
    withExtendedLifetime(slow) {}
  }

  /// The value stored under `name` in the file at `path` once it is there, or `nil` after
  /// five seconds.
  private func waitForStoredValue(of name: String, in path: String) -> Any? {
    var value: Any?
    _ = waitUntil {
      value =
        FileManager.default.contents(atPath: path)
        .flatMap { try? PropertyListSerialization.propertyList(from: $0, format: nil) }
        .flatMap { ($0 as? [String: Any])?[name] }
      return value != nil
    }
    return value
  }

  /// Whether `condition` held within five seconds, checked every 5 ms. Polls: a background
  /// flush, a poll and a diagnostic from another thread send no event a test can wait on.
  private func waitUntil(_ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(5)
    while !condition() {
      if Date() >= deadline { return false }
      usleep(5_000)
    }
    return true
  }

  @Test("Regression: a flush window of whole seconds kept its seconds (was flushed at once)")
  func flushWindowKeepsWholeSeconds() {
    #expect(DeferredFlush.dispatchInterval(.seconds(3600)) == .nanoseconds(3_600_000_000_000))
    #expect(DeferredFlush.dispatchInterval(.milliseconds(1_500)) == .nanoseconds(1_500_000_000))
    #expect(DeferredFlush.dispatchInterval(.milliseconds(100)) == .nanoseconds(100_000_000))
  }

  /// Regression: the interval was `Int(seconds) * 1_000_000_000` in an `Int`, which traps
  /// where `Int` is 32 bits for a window of 3 s or more, and in 64 bits past 292 years.
  @Test func aFlushWindowBeyondIntNanosecondsIsATimeNotATrap() {
    #expect(
      DeferredFlush.dispatchInterval(.seconds(10_000_000_000))
        == .milliseconds(Int(exactly: Int64(10_000_000_000_000))!))
    #expect(
      DeferredFlush.dispatchInterval(.seconds(Int64.max / 2))
        == .seconds(Int(clamping: Int64.max / 2)))
    #expect(DeferredFlush.dispatchInterval(.seconds(-1)) == .nanoseconds(0))
    #expect(DeferredFlush.dispatchInterval(.zero) == .nanoseconds(0))
  }

  @Test func filesAndDirectoryHavePrivatePermissions() throws {
    let parent = TemporaryDirectory()
    let directory = parent.path + "/config"
    let store = try PreferencesStore(suiteName: "app", directory: directory)
    store.set(1, forKey: "a")
    try store.flush()
    let fileMode =
      try FileManager.default.attributesOfItem(atPath: directory + "/app.plist")[.posixPermissions]
      as? Int
    let directoryMode =
      try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int
    #expect(fileMode == 0o600)
    #expect(directoryMode == 0o700)
  }

  @Test(arguments: ["", ".", "..", "a/b", "../x", "a..b", "nul\0name"])
  func badSuiteNamesAreRejected(_ name: String) {
    #expect(throws: DefaultsError.self) { try PreferencesStore(suiteName: name, directory: "/tmp") }
  }

  @Test func foundationReadsTheStoresFileAndTheReverse() throws {
    let directory = TemporaryDirectory()
    let store = try makeStore(directory)
    store.set("from store", forKey: "a")
    store.set([1, 2], forKey: "b")
    try store.flush()
    let data = try #require(FileManager.default.contents(atPath: directory.path + "/app.plist"))
    // Foundation reads the same XML format through PropertyListSerialization.
    let parsed =
      try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
    #expect(parsed?["a"] as? String == "from store")
    // And a file Foundation's writer produced is read by a fresh store.
    let foreign = try PropertyListSerialization.data(
      fromPropertyList: ["x": "from foundation", "n": 3] as [String: Any], format: .xml, options: 0)
    try foreign.write(to: URL(fileURLWithPath: directory.path + "/other.plist"))
    let other = try makeStore(directory, "other")
    #expect(other.string(forKey: "x") == "from foundation")
    #expect(other.integer(forKey: "n") == 3)
  }

  @Test(.linuxFiles) func foundationUserDefaultsFileIsReadByTheStore() throws {
    let directory = TemporaryDirectory()
    let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    let suite = "fromfoundation"
    // The helper writes with Foundation's UserDefaults (the library saves via synchronize).
    let result = try ChildProcess.run(
      "UserDefaultTestHelper", ["set", suite, "n", "42"], environment: environment)
    #expect(result.status == 0)
    let store = try makeStore(directory, suite)
    #expect(store.integer(forKey: "n") == 42)
  }

  @Test(arguments: ["empty", "truncated", "garbage", "wrongRoot"])
  func damagedFilesAreSetAsideAndReported(_ damage: String) throws {
    let directory = TemporaryDirectory()
    let path = directory.path + "/app.plist"
    let good = try PropertyListSerialization.data(
      fromPropertyList: ["a": "1", "b": [1, 2, 3]] as [String: Any], format: .xml, options: 0)
    let bytes: Data =
      switch damage {
      case "empty": Data()
      case "truncated": good.prefix(good.count / 2)
      case "garbage": Data((0..<200).map { _ in UInt8.random(in: 0...255) })
      default:
        try PropertyListSerialization.data(fromPropertyList: [1, 2], format: .xml, options: 0)
      }
    try bytes.write(to: URL(fileURLWithPath: path))
    let store = try makeStore(directory)
    let reports = Diagnostics.events { $0.kind == .damagedFile && $0.message.contains(path) }
    #expect(reports.count == 1)
    let backups = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
      $0.hasPrefix("app.plist.damaged-")
    }
    #expect(backups.count == 1)
    let backup = try #require(
      FileManager.default.contents(atPath: directory.path + "/" + backups[0]))
    #expect(backup == bytes, "the damaged bytes are kept as they were")
    store.set("new", forKey: "c")
    try store.flush()
    #expect(try PropertyListFile.values(at: path)["c"] as? String == "new")
  }

  @Test func unusableDirectoryIsReportedAndValuesStayInMemory() throws {
    let parent = TemporaryDirectory()
    #expect(FileManager.default.createFile(atPath: parent.path + "/file", contents: Data()))
    let store = try PreferencesStore(suiteName: "app", directory: parent.path + "/file/config")
    store.set(1, forKey: "a")
    #expect(throws: DefaultsError.self) { try store.flush() }
    #expect(store.integer(forKey: "a") == 1)
  }

  @Test func registeredDefaultsArePerInstance() {
    let first = PreferencesStore.inMemory()
    let second = PreferencesStore.inMemory()
    first.register(defaults: ["r": 1])
    #expect(first.integer(forKey: "r") == 1)
    #expect(second.object(forKey: "r") == nil)
    #expect(first.persistentDomain(forName: "x")?["r"] == nil)
  }

  @Test func inMemoryStoreWorksWithEverySurface() {
    let store = PreferencesStore.inMemory()
    store[.testLaunchCount] += 2
    #expect(store.integer(forKey: "TypedKeyTests.launchCount") == 2)
    let wrapper = UserDefaultsWrapper<Int?>(key: "w", default: 6, userDefaults: store)
    wrapper.wrappedValue = 1
    #expect(store.dictionaryRepresentation()["w"] as? Int == 1)
    wrapper.wrappedValue = nil
    #expect(wrapper.wrappedValue == 6)
    store.set(URL(string: "https://a.example/x?y=1"), forKey: "u")
    #expect(store.url(forKey: "u")?.absoluteString == "https://a.example/x?y=1")
    store.set(["a", Theme.dark] as [Any], forKey: "bad")
    #expect(store.object(forKey: "bad") == nil)
    store.removePersistentDomain(forName: "ignored")
    #expect(store.dictionaryRepresentation().isEmpty)
  }

  @Test func typedReadsSeePlainWritesOnTheStore() {
    let store = PreferencesStore.inMemory()
    let key = UserDefaults.Key<Profile?>(uniqueKey())
    store[key] = Profile(name: "a", age: 1)
    #expect(store[key]?.age == 1)
    store.set(#"{"age":2,"name":"b"}"#, forKey: key.name)
    #expect(store[key]?.age == 2)
    store.removeObject(forKey: key.name)
    #expect(store[key] == nil)
  }

  // .linuxFiles: the children find the suite through XDG_CONFIG_HOME; on a Mac they would
  // write into the real Application Support.
  @Test("Four processes write 250 distinct keys each at once: all 1,000 keys survive", .linuxFiles)
  func concurrentProcessesLoseNoKey() throws {
    let directory = TemporaryDirectory()
    let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    let results = try (0..<4).map { writer in
      try SpawnedProcess(
        ChildProcess.buildDirectory.appendingPathComponent("UserDefaultTestHelper"),
        ["store-write", "shared", "w\(writer)", "250"],
        environment: environment)
    }
    for process in results { process.waitUntilExit() }
    #expect(results.allSatisfy { $0.terminationStatus == 0 })
    let store = try makeStore(directory, "shared")
    for writer in 0..<4 {
      for index in 0..<250 {
        #expect(store.integer(forKey: "w\(writer).\(index)") == index)
      }
    }
  }

  @Test("Another process's flushed write is noticed within the poll interval", .linuxFiles)
  func otherProcessWritesAreNoticed() throws {
    let directory = TemporaryDirectory()
    let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    let store = try makeStore(directory, "watched")
    // The child writes "n.0" = 0; the store's poll brings it in and tells observers.
    let key = UserDefaults.Key<Int>("n.0", default: -1)
    let noticed = DispatchSemaphore(value: 0)
    let observation = store.observe(key) { if $0.newValue == 0 { noticed.signal() } }
    let result = try ChildProcess.run(
      "UserDefaultTestHelper", ["store-write", "watched", "n", "1"], environment: environment)
    #expect(result.status == 0)
    let written = Date()
    #expect(noticed.wait(timeout: .now() + 5) == .success)
    // The poll runs every 200 ms; allow for a loaded machine but catch a missing poll.
    #expect(Date().timeIntervalSince(written) < 2)
    #expect(store[key] == 0)
    observation.cancel()
  }

  @Test("Stress: 8 threads read, write, remove and flush one store on disk")
  func stressMixedAccessFromEightThreads() async throws {
    let directory = TemporaryDirectory()
    // UserDefaults is thread-safe but not marked Sendable.
    nonisolated(unsafe) let store = try PreferencesStore(
      suiteName: "stress", directory: directory.path, flushWindow: .milliseconds(1))
    let keys = (0..<16).map { UserDefaults.Key<Int>("stress.\($0)", default: -1) }
    let profiles = UserDefaults.Key<[Profile]>("stress.profiles", default: [])
    let heard = Counter()
    let observation = store.observe(keys[0]) { _ in heard.increment() }
    await withTaskGroup(of: Void.self) { group in
      for thread in 0..<8 {
        group.addTask {
          for index in 0..<400 {
            let key = keys[(thread + index) % keys.count]
            switch index % 5 {
            case 0: store[key] = thread * 1000 + index
            case 1: _ = store[key]
            case 2: store.removeObject(forKey: key.name)
            case 3: store[profiles] = [Profile(name: "t\(thread)", age: index)]
            default: _ = store[profiles].count + store.integer(forKey: key.name)
            }
            if index % 100 == 99 { try? store.flush() }
          }
        }
      }
    }
    try store.flush()
    observation.cancel()
    // After the storm the file holds exactly what memory holds.
    let file = try PropertyListFile.values(at: directory.path + "/stress.plist")
    #expect(file.count == store.persistentDomain(forName: "stress")?.count)
    for name in keys.map(\.name) + [profiles.name] {
      let (onDisk, inMemory) = (file[name], store.object(forKey: name))
      #expect(onDisk == nil && inMemory == nil || PropertyListEquality.isEqual(onDisk!, inMemory!))
    }
    #expect(heard.value > 0)
  }
}

@Suite("Where preferences live when the environment is odd")
struct PreferencesDirectoryTests {
  /// Darwin's own expectation: an app's Application Support, whatever the environment.
  @Test func applePlatformsUseApplicationSupport() throws {
    #if canImport(Darwin)
      let directory = try #require(
        PreferencesFile.defaultDirectory(environment: ["XDG_CONFIG_HOME": "/elsewhere"]))
      #expect(directory.hasSuffix("/Preferences") && directory.contains("Application Support"))
    #endif
  }

  @Test(
    "A relative XDG_CONFIG_HOME with HOME unset is reported as relative, not as unset",
    .linuxFiles)
  func relativeConfigHomeIsNamed() {
    let environment = ["XDG_CONFIG_HOME": "config"]
    #expect(PreferencesFile.defaultDirectory(environment: environment) == nil)
    let reason = PreferencesFile.noDirectoryReason(environment: environment)
    #expect(reason.contains("\"config\"") && reason.contains("not an absolute path"))
    #expect(PreferencesFile.noDirectoryReason(environment: [:]).hasPrefix("neither"))
  }
}

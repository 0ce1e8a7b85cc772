import Foundation
import Testing

@testable import PropertyListCodec
@testable import UserDefault

/// The backends every rule of SPEC "Semantics" is checked on, each giving two objects of
/// one fresh suite.
enum BackendKind: String, CaseIterable, CustomTestStringConvertible {
  case foundation, store, inMemory

  var testDescription: String { rawValue }

  /// Two objects of one fresh suite (an in-memory store is a suite of its own, so both
  /// are the same object), and what must stay alive until the test ends.
  func makeSuite() -> (first: UserDefaults, second: UserDefaults, keepAlive: AnyObject) {
    switch self {
    case .foundation:
      let suite = TestSuite()
      return (suite.defaults, UserDefaults(suiteName: suite.name)!, suite)
    case .store:
      Diagnostics.installRecorder()
      let directory = TemporaryDirectory()
      let name = "OneEngine." + UUID().uuidString
      let first = try! PreferencesStore(suiteName: name, directory: directory.path)
      let second = try! PreferencesStore(suiteName: name, directory: directory.path)
      return (first, second, directory)
    case .inMemory:
      Diagnostics.installRecorder()
      let store = PreferencesStore.inMemory()
      return (store, store, store)
    }
  }
}

struct GridPoint: Codable, Equatable, Sendable {
  var x: Int
  var y: Int
}

@Suite("One engine per suite")
struct OneEnginePerSuiteTests {
  @Test(
    "Two objects of one suite agree at once, for reads and for observers",
    arguments: BackendKind.allCases)
  func twoObjectsOfOneSuiteAgree(_ kind: BackendKind) {
    let (a, b, keepAlive) = kind.makeSuite()
    let count = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let point = UserDefaults.Key<GridPoint?>(uniqueKey())
    let heard = Recorder<Int>()
    let observation = a.observe(count) { heard.append($0.newValue) }
    #expect(a[count] == 0)
    #expect(a[point] == nil)
    b[count] = 5
    b[point] = GridPoint(x: 1, y: 2)
    #expect(a[count] == 5)
    #expect(a[point] == GridPoint(x: 1, y: 2))
    #expect(heard.all == [5])
    b.reset(count)
    #expect(a[count] == 0)
    #expect(heard.all == [5, 0])
    observation.cancel()
    withExtendedLifetime(keepAlive) {}
  }

  @Test("A store object made later for the same file joins the same suite")
  func aLaterStoreObjectJoinsTheSuite() throws {
    Diagnostics.installRecorder()
    let directory = TemporaryDirectory()
    let name = "OneEngine.later." + UUID().uuidString
    let key = UserDefaults.Key<String>(uniqueKey(), default: "")
    var first: PreferencesStore? = try PreferencesStore(suiteName: name, directory: directory.path)
    first?[key] = "kept"
    first = nil
    let second = try PreferencesStore(suiteName: name, directory: directory.path)
    #expect(second[key] == "kept")
    #expect(
      second.fileStore
        === (try PreferencesStore(suiteName: name, directory: directory.path)).fileStore)
  }

  @Test(
    "A store object released within its flush window still saves its write",
    .linuxFiles, arguments: ["exit", "wait"])
  func releasedStoreSavesItsWrite(_ ending: String) throws {
    let directory = TemporaryDirectory()
    let result = try ChildProcess.run(
      "UserDefaultTestHelper", ["store-release", "released", "count", "5", ending],
      environment: ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path])
    #expect(result.status == 0, "\(result.output) \(result.error)")
    let values = try PropertyListFile.values(at: directory.path + "/released.plist")
    #expect(values["count"] as? Int == 5)
  }

  @Test(
    "On the default path a damaged file is moved aside byte for byte, not overwritten",
    .linuxFiles)
  func damagedFileOnTheDefaultPathIsMovedAside() throws {
    let directory = TemporaryDirectory()
    let path = directory.path + "/damaged.plist"
    let good = try PropertyListSerialization.data(
      fromPropertyList: ["a": "kept", "b": [1, 2, 3]] as [String: Any], format: .xml, options: 0)
    let damaged = good.prefix(good.count - 20)
    try damaged.write(to: URL(fileURLWithPath: path))
    let result = try ChildProcess.run(
      "UserDefaultTestHelper", ["set", "damaged", "count", "5"],
      environment: ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path])
    #expect(result.status == 0)
    #expect(result.error.contains("damaged"), "reported: \(result.error)")
    let backups = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasPrefix("damaged.plist.damaged-") }
    #expect(backups.count == 1)
    let backup = try #require(backups.first)
    #expect(FileManager.default.contents(atPath: directory.path + "/" + backup) == damaged)
    let values = try PropertyListFile.values(at: path)
    #expect(values["count"] as? Int == 5)
  }

  @Test(
    "On the default path a damaged file is reported at the first read, naming it, and left in place byte for byte",
    .linuxFiles)
  func damagedFileOnTheDefaultPathIsReportedAtTheFirstRead() throws {
    let directory = TemporaryDirectory()
    let path = directory.path + "/damagedRead.plist"
    let damaged = Data("garbage".utf8)
    try damaged.write(to: URL(fileURLWithPath: path))
    let result = try ChildProcess.run(
      "UserDefaultTestHelper", ["read", "damagedRead"],
      environment: ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path])
    #expect(result.status == 0)
    #expect(result.output.contains("bool MISMATCH"), "the samples read as their defaults")
    let reports = result.error.split(separator: "\n").filter { $0.contains("damagedFile") }
    #expect(reports.count == 1, "reported: \(result.error)")
    #expect(reports.first?.contains(path + ": ") == true, "\(reports)")
    // Nothing was written: the bytes are where they were, and nothing was moved aside.
    #expect(FileManager.default.contents(atPath: path) == damaged)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["damagedRead.plist"])
  }

  @Test(
    "The default path saves the latest write of each key, whatever order keys are written in",
    .linuxFiles,
    arguments: [
      // Steps, then what the file holds after them.
      (["a=1", "b=2", "a=3", "save"], ["a": 3, "b": 2]),
      (["a=1", "b=2", "a=3", "save", "b=4", "save"], ["a": 3, "b": 4]),
      (["a=1", "a=2", "save", "a=5", "b=1", "a=6", "save"], ["a": 6, "b": 1]),
      // An older write of a key left behind by a save would come back in the next one.
      (["a=5", "b=1", "a=6", "save", "c=1", "save"], ["a": 6, "b": 1, "c": 1]),
      (["a=1", "b=2", "a=3", "-a", "save"], ["b": 2]),
      (["a=1", "save", "b=2", "-a", "b=3", "save"], ["b": 3]),
      // A save by hand leaves a later write a deferred save of its own: at `deferred` the
      // child waits for the file to hold its last write, and leaves with status 3 if it
      // never does.
      (["a=1", "save", "b=2", "deferred"], ["a": 1, "b": 2]),
      (
        ["a=1", "save", "a=2", "deferred", "a=3", "save", "a=4", "b=5", "deferred"],
        ["a": 4, "b": 5]
      ),
    ])
  func defaultPathSavesTheLatestWriteOfEachKey(steps: [String], expected: [String: Int]) throws {
    let directory = TemporaryDirectory()
    let result = try ChildProcess.run(
      "UserDefaultTestHelper", ["write-sequence", "sequence"] + steps,
      environment: ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path])
    #expect(result.status == 0, "status 3: a deferred save never came. \(result.error)")
    #expect(!result.output.contains("saved false"), "\(result.output)")
    let values = try PropertyListFile.values(at: directory.path + "/sequence.plist")
    #expect(values.mapValues { $0 as? Int } == expected.mapValues { $0 })
  }

  @Test("A save that fails again and again on the default path is reported once", .linuxFiles)
  func repeatedSaveFailureIsReportedOnce() throws {
    let directory = TemporaryDirectory()
    let notADirectory = directory.path + "/config"
    try Data("a file where the preferences directory should be".utf8)
      .write(to: URL(fileURLWithPath: notADirectory))
    let result = try ChildProcess.run(
      "UserDefaultTestHelper", ["write-sequence", "failing", "a=1", "save", "save", "save"],
      environment: ["XDG_CONFIG_HOME": notADirectory, "HOME": directory.path])
    #expect(result.output == "saved false\nsaved false\nsaved false\n")
    let reports = result.error.split(separator: "\n").filter { $0.contains("not a directory") }
    #expect(reports.count == 1, "\(result.error)")
  }

  @Test(
    "On the default path the library's keys are merged into the file, others kept",
    .linuxFiles)
  func defaultPathMergesIntoTheFile() throws {
    let directory = TemporaryDirectory()
    let path = directory.path + "/merged.plist"
    try PropertyListSerialization.data(
      fromPropertyList: ["other": "kept"] as [String: Any], format: .xml, options: 0
    ).write(to: URL(fileURLWithPath: path))
    let result = try ChildProcess.run(
      "UserDefaultTestHelper", ["set", "merged", "count", "5"],
      environment: ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path])
    #expect(result.status == 0)
    let values = try PropertyListFile.values(at: path)
    #expect(values["count"] as? Int == 5)
    #expect(values["other"] as? String == "kept")
  }

  @Test(
    "A Foundation suite name that leaves the preferences directory is refused and reported",
    .linuxFiles, arguments: ["../escape", "..", ".", "a/b"])
  func escapingFoundationSuiteNameIsRefused(_ name: String) throws {
    let root = TemporaryDirectory()
    let config = root.path + "/config"
    try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
    let result = try ChildProcess.run(
      "UserDefaultTestHelper", ["set", name, "count", "5"],
      environment: ["XDG_CONFIG_HOME": config, "HOME": root.path])
    #expect(result.status == 0)
    #expect(result.error.contains("suite name"), "reported: \(result.error)")
    let written = try FileManager.default.subpathsOfDirectory(atPath: root.path)
    #expect(written == ["config"], "nothing written: \(written)")
    let saved = try ChildProcess.run(
      "UserDefaultTestHelper", ["set-and-save", name, "count", "5"],
      environment: ["XDG_CONFIG_HOME": config, "HOME": root.path])
    #expect(saved.output == "saved false\n", "saveNow() reports the refused suite")
  }

  @Test(
    "200 rounds of 8 threads first touching a fresh suite each read their own writes",
    arguments: BackendKind.allCases)
  func threadsReadTheirOwnWrites(_ kind: BackendKind) {
    let stale = Counter()
    for _ in 0..<200 {
      let (made, _, keepAlive) = kind.makeSuite()
      nonisolated(unsafe) let shared = made  // UserDefaults is thread-safe but not marked Sendable.
      let suiteName = (shared as? PreferencesStore)?.filePath
      DispatchQueue.concurrentPerform(iterations: 8) { thread in
        let defaults = Self.object(thread, shared: shared, kind: kind, suiteName: suiteName)
        let number = UserDefaults.Key<Int>("n\(thread)", default: -1)
        let point = UserDefaults.Key<GridPoint?>("p\(thread)")
        for value in 1...10 {
          defaults[number] = value
          if defaults[number] != value { stale.increment() }
          defaults[point] = GridPoint(x: thread, y: value)
          if defaults[point] != GridPoint(x: thread, y: value) { stale.increment() }
        }
      }
      withExtendedLifetime(keepAlive) {}
    }
    #expect(stale.value == 0)
  }

  /// The object thread `thread` uses: even threads share one, odd threads make their own
  /// (where a suite can have several objects).
  private static func object(
    _ thread: Int, shared: UserDefaults, kind: BackendKind, suiteName path: String?
  ) -> UserDefaults {
    guard thread % 2 == 1 else { return shared }
    switch kind {
    case .foundation:
      return UserDefaults(suiteName: FoundationInstances.backend(of: shared).context.name)!
    case .store:
      let url = URL(fileURLWithPath: path!)
      return try! PreferencesStore(
        suiteName: url.deletingPathExtension().lastPathComponent,
        directory: url.deletingLastPathComponent().path)
    case .inMemory:
      return shared
    }
  }

  @Test("An instance whose suite cannot be identified gets its own backend, reported once")
  func unidentifiedInstanceGetsItsOwnBackend() {
    Diagnostics.installRecorder()
    let name = "UserDefaultTests.unidentified." + UUID().uuidString
    let first = UserDefaults(suiteName: name)!
    let second = UserDefaults(suiteName: name)!
    let own = FoundationInstances.backend(of: first, suiteField: "noSuchField")
    let otherOwn = FoundationInstances.backend(of: second, suiteField: "noSuchField")
    #expect(own !== FoundationInstances.backend(of: UserDefaults.standard))
    #expect(own !== otherOwn)
    #expect(FoundationInstances.backend(of: first) === own, "found once, then remembered")
    let reports = Diagnostics.events {
      $0.kind == .invalidSuite && $0.message.contains("could not be identified")
    }
    #expect(reports.count == 1)
    first.removePersistentDomain(forName: name)
  }

  @Test(
    "Observers are told of an unreadable value as reads report it",
    arguments: BackendKind.allCases)
  func observersReportUnreadableValues(_ kind: BackendKind) {
    let (a, b, keepAlive) = kind.makeSuite()
    let key = UserDefaults.Key<GridPoint>(uniqueKey(), default: GridPoint(x: 0, y: 0))
    let heard = Recorder<GridPoint>()
    let observation = a.observe(key) { heard.append($0.newValue) }
    try? b.store("not a point", forKey: key.name)
    #expect(heard.all == [GridPoint(x: 0, y: 0)])
    #expect(Diagnostics.events(forKey: key.name).contains { $0.kind == .undecodableValue })
    observation.cancel()
    withExtendedLifetime(keepAlive) {}
  }

  @Test(
    "isDefaultValue is true when nothing is stored, with a computed default",
    arguments: BackendKind.allCases)
  func isDefaultValueWithComputedDefault(_ kind: BackendKind) {
    let (defaults, _, keepAlive) = kind.makeSuite()
    let key = UserDefaults.Key<Date>(uniqueKey(), default: { Date() })
    #expect(defaults.isDefaultValue(key))
    defaults[key] = Date(timeIntervalSince1970: 0)
    #expect(!defaults.isDefaultValue(key))
    defaults.reset(key)
    #expect(defaults.isDefaultValue(key))
    withExtendedLifetime(keepAlive) {}
  }

  @Test(
    "A write replaces the stored type: true over 1, 0 over false, false over 0.0",
    arguments: BackendKind.allCases)
  func aWriteReplacesTheType(_ kind: BackendKind) {
    let (a, b, keepAlive) = kind.makeSuite()
    let name = uniqueKey()
    let flag = UserDefaults.Key<Bool>(name, default: false)
    let number = UserDefaults.Key<Int>(name, default: -1)
    let heard = Counter()
    let observation = b.observe(flag) { _ in heard.increment() }
    a[number] = 1
    a[flag] = true
    #expect(PropertyListKind(of: a.object(forKey: name)!) == .bool)
    a[flag] = false
    a[number] = 0
    #expect(PropertyListKind(of: a.object(forKey: name)!) == .integer)
    try? a.store(0.0, forKey: name)
    a[flag] = false
    #expect(PropertyListKind(of: a.object(forKey: name)!) == .bool)
    #expect(heard.value == 6, "each write above changes the value or its type")
    observation.cancel()
    withExtendedLifetime(keepAlive) {}
  }
}

/// Reads a property-list file the way a test checks what reached the disk.
enum PropertyListFile {
  static func values(at path: String) throws -> [String: Any] {
    let data = try #require(FileManager.default.contents(atPath: path), "no file at \(path)")
    return try #require(
      try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
  }
}

import Foundation
import Testing

@testable import UserDefault

/// The search list (issue 27): launch arguments, the suite's file, system-wide files of
/// `XDG_CONFIG_DIRS`, the global domain, registered defaults, first match winning.
@Suite("The search list: arguments, system-wide files, the global domain", .linuxFiles)
struct SearchListTests {
  /// What every surface of the helper's `search-list` mode printed, as `surface key` →
  /// value, and its standard error.
  static func searchList(
    backend: String, _ extra: [String] = [], arguments: [String],
    environment: [String: String?]
  ) throws -> (lines: [String: String], errors: String, output: String) {
    let result = try ChildProcess.run(
      "UserDefaultTestHelper", ["search-list", backend] + extra + arguments,
      environment: environment)
    #expect(result.status == 0, "\(result.error)")
    var lines: [String: String] = [:]
    for line in result.output.split(separator: "\n") {
      let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
      if parts.count == 3 { lines[parts[0] + " " + parts[1]] = parts[2] }
    }
    return (lines, result.error, result.output)
  }

  static let surfaces = ["key", "wrapper", "wrapperClassic", "safe", "entry", "keyPath"]

  static func environment(_ directory: TemporaryDirectory, systemDirectories: String? = nil)
    -> [String: String?]
  {
    [
      "XDG_CONFIG_HOME": directory.path + "/config", "HOME": directory.path,
      "XDG_CONFIG_DIRS": systemDirectories ?? (directory.path + "/no-system"),
    ]
  }

  static func write(
    _ values: [String: Any], to path: String, format: PreferencesFileFormat = .binary
  )
    throws
  {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try PropertyListSerialization.data(
      fromPropertyList: values, format: format == .binary ? .binary : .xml, options: 0
    ).write(to: URL(fileURLWithPath: path))
  }

  @Test(
    "Launch arguments read through every surface, typed, on both backends",
    arguments: ["foundation", "store"])
  func launchArgumentsReadThroughEverySurface(backend: String) throws {
    let directory = TemporaryDirectory()
    let (lines, errors, _) = try Self.searchList(
      backend: backend,
      arguments: [
        "-flag", "YES", "-count", "5", "-ratio", "0.5", "-name", "\"x y\"", "-list", "(a, b)",
        "-level", "2", "-point", "{\"x\":3}",
      ],
      environment: Self.environment(directory))
    for surface in Self.surfaces {
      #expect(lines["\(surface) flag"] == "true", "\(surface)")
      #expect(lines["\(surface) count"] == "5", "\(surface)")
      #expect(lines["\(surface) ratio"] == "0.5", "\(surface)")
      #expect(lines["\(surface) name"] == "x y", "\(surface)")
      #expect(lines["\(surface) list"] == "[\"a\", \"b\"]", "\(surface)")
    }
    #expect(lines["raw level"] == "high")
    #expect(lines["codable point"] == "3")
    #expect(!errors.contains("wrongType"), "\(errors)")
  }

  @Test(
    "An argument that is no number reads the default and is reported",
    arguments: ["foundation", "store"])
  func argumentOfTheWrongTypeIsReported(backend: String) throws {
    let directory = TemporaryDirectory()
    let (lines, errors, _) = try Self.searchList(
      backend: backend, arguments: ["-count", "many"], environment: Self.environment(directory))
    for surface in Self.surfaces { #expect(lines["\(surface) count"] == "-1", "\(surface)") }
    #expect(
      errors.contains("UserDefault[wrongType] standard (UserDefaultTestHelper.plist)/count"),
      "\(errors)")
    #expect(errors.contains("the launch argument -count cannot be read as Int"), "\(errors)")
  }

  /// The README's launch-argument table, row by row: what an argument must look like for
  /// a key of each type, and what a bare number gives a date key.
  @Test(
    "Launch arguments of every type: the README's table",
    arguments: [
      (["-lastRun", "2024-01-01T00:00:00Z"], "date lastRun", "1704067200.0"),
      (["-lastRun", "2024-01-01T00:00:00.250Z"], "date lastRun", "1704067200.25"),
      (["-lastRun", "2024-01-01T01:00:00+01:00"], "date lastRun", "1704067200.0"),
      (["-lastRun", "<date>2024-01-01T00:00:00Z</date>"], "date lastRun", "1704067200.0"),
      (
        ["-site", "https://example.com/a%20b?q=1#f"], "url site", "https://example.com/a%20b?q=1#f"
      ),
      (
        ["-id", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"], "uuid id",
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
      ),
      (["-blob", "<00ff10>"], "data blob", "00ff10"),
      (["-point", #"{"x":3}"#], "codable point", "3"),
      (["-level", "2"], "raw level", "high"),
    ])
  func argumentOfEveryType(arguments: [String], line: String, expected: String) throws {
    for backend in ["foundation", "store"] {
      let directory = TemporaryDirectory()
      let (lines, errors, _) = try Self.searchList(
        backend: backend, arguments: arguments, environment: Self.environment(directory))
      #expect(lines[line] == expected, "\(backend): \(errors)")
      #expect(!errors.contains("wrongType"), "\(backend): \(errors)")
    }
  }

  @Test("A bare number is no date: the default, and a report that names the argument")
  func bareNumberIsNoDate() throws {
    for backend in ["foundation", "store"] {
      let directory = TemporaryDirectory()
      let (lines, errors, _) = try Self.searchList(
        backend: backend, arguments: ["-lastRun", "1704067200"],
        environment: Self.environment(directory))
      #expect(lines["date lastRun"] == "\(Date.distantPast.timeIntervalSince1970)", "\(backend)")
      #expect(errors.contains("[wrongType]"), "\(backend): \(errors)")
      #expect(errors.contains("the launch argument -lastRun cannot be read as Date"), "\(errors)")
    }
  }

  @Test("A negative number is passed with a leading space", arguments: ["foundation", "store"])
  func negativeArgument(backend: String) throws {
    let directory = TemporaryDirectory()
    let (lines, _, _) = try Self.searchList(
      backend: backend, arguments: ["-count", " -3", "-ratio", " -0.5"],
      environment: Self.environment(directory))
    for surface in Self.surfaces {
      #expect(lines["\(surface) count"] == "-3", "\(surface)")
      #expect(lines["\(surface) ratio"] == "-0.5", "\(surface)")
    }
  }

  @Test(
    "A write under an argument goes to the file; reads keep the argument",
    arguments: ["foundation", "store"])
  func writeUnderAnArgumentGoesToTheFile(backend: String) throws {
    let directory = TemporaryDirectory()
    let (_, _, output) = try Self.searchList(
      backend: backend, ["write"], arguments: ["-count", "5"],
      environment: Self.environment(directory))
    // Observers are not told of a write they cannot see.
    #expect(output.contains("after write 5 told []\n"), "\(output)")
    let file = directory.path + "/config/UserDefaultTestHelper.plist"
    let values = try PropertyListFile.values(at: file)
    #expect(values["count"] as? Int == 7)
  }

  @Test(
    "XDG_CONFIG_DIRS: the user's file wins, then the first directory's, never written",
    arguments: ["foundation", "store"])
  func systemWideFilesInOrder(backend: String) throws {
    let directory = TemporaryDirectory()
    let (a, b) = (directory.path + "/a", directory.path + "/b")
    let name = "UserDefaultTestHelper.plist"
    try Self.write(["count": 3], to: directory.path + "/config/" + name)
    try Self.write(["count": 2, "ratio": 0.25, "name": "a"], to: a + "/" + name, format: .xml)
    try Self.write(["count": 1, "ratio": 0.75, "name": "b", "list": ["b"]], to: b + "/" + name)
    // The global domain comes after the system-wide files.
    try Self.write(
      ["ratio": 0.9, "list": ["global"], "flag": true],
      to: directory.path + "/config/.GlobalPreferences.plist")
    let before = [a, b].map { FileManager.default.contents(atPath: $0 + "/" + name) }
    let environment = Self.environment(directory, systemDirectories: a + ":relative/ignored:" + b)
    let (lines, errors, output) = try Self.searchList(
      backend: backend, ["write"], arguments: [], environment: environment)
    for surface in Self.surfaces {
      #expect(lines["\(surface) count"] == "3", "\(surface)")
      #expect(lines["\(surface) ratio"] == "0.25", "\(surface)")
      #expect(lines["\(surface) name"] == "a", "\(surface)")
      #expect(lines["\(surface) list"] == "[\"b\"]", "\(surface)")
      #expect(lines["\(surface) flag"] == "true", "\(surface)")
    }
    #expect(output.contains("after write 7 told [7]\n"), "\(output)")
    #expect(!errors.contains("damaged"), "\(errors)")
    #expect([a, b].map { FileManager.default.contents(atPath: $0 + "/" + name) } == before)
    // Removing the user's value reveals the first directory's, and observers hear it.
    let removed = try Self.searchList(
      backend: backend, ["remove"], arguments: [], environment: environment)
    #expect(removed.output.contains("after remove 2 told [2]\n"), "\(removed.output)")
    #expect([a, b].map { FileManager.default.contents(atPath: $0 + "/" + name) } == before)
  }

  @Test(
    "A damaged system-wide file is reported once and skipped; the others still read",
    arguments: ["foundation", "store"])
  func damagedSystemFileIsSkipped(backend: String) throws {
    let directory = TemporaryDirectory()
    let (a, b) = (directory.path + "/a", directory.path + "/b")
    let name = "UserDefaultTestHelper.plist"
    try FileManager.default.createDirectory(atPath: a, withIntermediateDirectories: true)
    try Data("garbage".utf8).write(to: URL(fileURLWithPath: a + "/" + name))
    try Self.write(["ratio": 0.75], to: b + "/" + name)
    let (lines, errors, _) = try Self.searchList(
      backend: backend, arguments: [],
      environment: Self.environment(directory, systemDirectories: a + ":" + b))
    for surface in Self.surfaces { #expect(lines["\(surface) ratio"] == "0.75", "\(surface)") }
    #expect(errors.components(separatedBy: "damagedFile").count == 2, "\(errors)")
    #expect(FileManager.default.contents(atPath: a + "/" + name) == Data("garbage".utf8))
  }

  @Test("The global domain reads through every suite; the suite's own value wins")
  func globalDomainReadsThroughEverySuite() throws {
    let directory = TemporaryDirectory()
    let global = directory.path + "/.GlobalPreferences.plist"
    try Self.write(
      ["searchList.locale": "en_GB", "searchList.shared": "global", "searchList.ratio": 0.5],
      to: global)
    try Self.write(["searchList.shared": "own"], to: directory.path + "/suite.plist")
    let globalBytes = FileManager.default.contents(atPath: global)
    let store = try PreferencesStore(suiteName: "suite", directory: directory.path)
    let other = try PreferencesStore(suiteName: "other", directory: directory.path)
    #expect(store.string(forKey: "searchList.locale") == "en_GB")
    #expect(other[UserDefaults.Key<String>("searchList.locale", default: "")] == "en_GB")
    #expect(store[UserDefaults.Key<Double>("searchList.ratio", default: 0)] == 0.5)
    #expect(store.string(forKey: "searchList.shared") == "own")
    #expect(other.string(forKey: "searchList.shared") == "global")
    let merged = store.dictionaryRepresentation()
    #expect(
      merged["searchList.shared"] as? String == "own"
        && merged["searchList.locale"] as? String == "en_GB")
    #expect(store.persistentDomain(forName: "suite")?["searchList.locale"] == nil)

    // Removing the suite's value reveals the global one, and observers are told.
    let key = UserDefaults.Key<String>("searchList.shared", default: "none")
    let seen = Recorder<String>()
    let observation = store.observe(key) { seen.append($0.newValue) }
    store.removeObject(forKey: "searchList.shared")
    #expect(store[key] == "global")
    #expect(seen.all == ["global"])
    try store.flush()
    #expect(FileManager.default.contents(atPath: global) == globalBytes)
    observation.cancel()
  }

  @Test(
    "A key written by `defaults write -g` reads through every surface; the suite's own value wins",
    arguments: ["foundation", "store"])
  func globalDomainFromTheTool(backend: String) throws {
    let directory = TemporaryDirectory()
    let environment = Self.environment(directory)
    for (key, flag, value) in [("count", "-int", "4"), ("name", "-string", "global")] {
      let written = try ChildProcess.run(
        "defaults", ["write", "-g", key, flag, value], environment: environment)
      #expect(written.status == 0, "\(written.error)")
    }
    try Self.write(["name": "own"], to: directory.path + "/config/UserDefaultTestHelper.plist")
    let (lines, _, _) = try Self.searchList(
      backend: backend, arguments: [], environment: environment)
    for surface in Self.surfaces {
      #expect(lines["\(surface) count"] == "4", "\(surface)")
      #expect(lines["\(surface) name"] == "own", "\(surface)")
    }
  }

  @Test("A removal with a registered default and a global value: observers get what reads give")
  func removalRevealsTheNextDomainOnly() throws {
    let directory = TemporaryDirectory()
    try Self.write(
      ["searchList.layered": "global"], to: directory.path + "/.GlobalPreferences.plist")
    let store = try PreferencesStore(suiteName: "layered", directory: directory.path)
    let key = UserDefaults.Key<String>("searchList.layered", default: "default")
    let registered = UserDefaults.Key<String>("searchList.registeredOnly", default: "default")
    store.register(defaults: [
      "searchList.layered": "registered", "searchList.registeredOnly": "registered",
    ])
    let seen = Recorder<String>()
    let observations = [key, registered].map { key in
      store.observe(key) { seen.append($0.newValue) }
    }
    store[key] = "own"
    store[registered] = "own"
    store.removeObject(forKey: "searchList.layered")
    store.removeObject(forKey: "searchList.registeredOnly")
    #expect(store[key] == "global" && store[registered] == "registered")
    #expect(seen.all == ["own", "own", "global", "registered"])
    for observation in observations { observation.cancel() }
  }

  @Test("The suites of a process share one read of the global file; a damaged one is reported once")
  func suitesShareTheGlobalFile() throws {
    let directory = TemporaryDirectory()
    Diagnostics.installRecorder()
    let global = directory.path + "/.GlobalPreferences.plist"
    try Data("garbage".utf8).write(to: URL(fileURLWithPath: global))
    let stores = try (0..<3).map {
      try PreferencesStore(suiteName: "sharing\($0)", directory: directory.path)
    }
    for store in stores { #expect(store.object(forKey: "anything") == nil) }
    let reports = Diagnostics.events { $0.kind == .damagedFile && $0.message.contains(global) }
    #expect(reports.count == 1, "\(reports)")
    #expect(FileManager.default.contents(atPath: global) == Data("garbage".utf8))
  }

  @Test(
    "Two objects of one suite: both read the global value; a removal through one reaches the other's observers"
  )
  func twoObjectsOfOneSuite() throws {
    let directory = TemporaryDirectory()
    try Self.write(["searchList.pair": "global"], to: directory.path + "/.GlobalPreferences.plist")
    let first = try PreferencesStore(suiteName: "pair", directory: directory.path)
    let second = try PreferencesStore(suiteName: "pair", directory: directory.path)
    let key = UserDefaults.Key<String>("searchList.pair", default: "default")
    #expect(first[key] == "global" && second[key] == "global")
    first[key] = "own"
    #expect(second[key] == "own")
    let seen = Recorder<String>()
    let observation = second.observe(key) { seen.append($0.newValue) }
    first.reset(key)
    #expect(second[key] == "global")
    #expect(seen.all == ["global"])
    observation.cancel()
  }

  @Test("A change to the global file is noticed by the poll, and observers are told")
  func globalChangeIsNoticed() throws {
    let directory = TemporaryDirectory()
    let global = directory.path + "/.GlobalPreferences.plist"
    try Self.write(["searchList.theme": "light"], to: global)
    let store = try PreferencesStore(suiteName: "watching", directory: directory.path)
    let key = UserDefaults.Key<String>("searchList.theme", default: "none")
    #expect(store[key] == "light")
    let noticed = DispatchSemaphore(value: 0)
    let observation = store.observe(key) { if $0.newValue == "dark" { noticed.signal() } }
    let staged = global + ".new"
    try Self.write(["searchList.theme": "dark"], to: staged)
    #expect(rename(staged, global) == 0)
    #expect(noticed.wait(timeout: .now() + 5) == .success)
    #expect(store[key] == "dark")
    observation.cancel()
  }

  @Test("An in-memory store, as tests get it, ignores launch arguments unless asked")
  func inMemoryStoresIgnoreArguments() throws {
    let directory = TemporaryDirectory()
    let (lines, _, _) = try Self.searchList(
      backend: "memory", arguments: ["-flag", "YES", "-count", "5"],
      environment: Self.environment(directory))
    for surface in Self.surfaces {
      #expect(lines["\(surface) flag"] == "false", "\(surface)")
      #expect(lines["\(surface) count"] == "-1", "\(surface)")
    }
    #expect(PreferencesStore.inMemory().dictionaryRepresentation().isEmpty)
  }

  @Test func argumentTextReadings() {
    func readings(_ text: String) -> String { "\(ArgumentText.readings(of: text))" }
    #expect(readings("YES") == "[true]")
    #expect(readings("no") == "[false]")
    #expect(readings("1") == "[true, 1, 1.0]")
    #expect(readings("5") == "[5, 5.0]")
    #expect(readings("-0.5e1") == "[-5.0]")
    for text in ["many", "0x10", "nan", "inf", ""] { #expect(readings(text) == "[]", "\(text)") }
  }
}

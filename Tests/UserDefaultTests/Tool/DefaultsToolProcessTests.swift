import Foundation
import Testing

@testable import PropertyListCodec
@testable import UserDefault

/// The `defaults` executable run as a real process against a temporary preferences
/// directory.
@Suite("defaults: the tool as a process", .linuxFiles)
struct DefaultsToolProcessTests {
  final class Sandbox {
    let directory = TemporaryDirectory()
    var environment: [String: String?] {
      ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    }

    @discardableResult
    func run(_ arguments: String...) throws -> (status: Int32, output: String, error: String) {
      try run(arguments)
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
      try ChildProcess.run("defaults", arguments, environment: environment)
    }

    func values(_ domain: String) throws -> [String: Any] {
      let data = try #require(
        FileManager.default.contents(atPath: directory.path + "/\(domain).plist"))
      return try #require(
        try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    }
  }

  @Test("export keeps the sign of -0.0 and a date's value, from a binary file")
  func exportKeepsNegativeZero() throws {
    let sandbox = Sandbox()
    try PropertyListSerialization.data(
      fromPropertyList: ["zero": -0.0, "count": 3] as [String: Any], format: .binary, options: 0
    ).write(to: URL(fileURLWithPath: sandbox.directory.path + "/app.plist"))
    let exported = try sandbox.run("export", "app", "-")
    #expect(exported.status == 0, "\(exported.error)")
    #expect(exported.output.contains("<real>-0.0</real>"), "\(exported.output)")
    let values = try #require(
      try PropertyListSerialization.propertyList(from: Data(exported.output.utf8), format: nil)
        as? [String: Any])
    #expect((values["zero"] as? Double)?.sign == .minus && values["count"] as? Int == 3)
  }

  @Test("domains leaves the global domain out, as macOS does")
  func domainsLeaveTheGlobalDomainOut() throws {
    let sandbox = Sandbox()
    #expect(try sandbox.run("write", "-g", "AppleLocale", "en_GB").status == 0)
    #expect(try sandbox.run("write", "com.example.app", "k", "v").status == 0)
    let result = try sandbox.run("domains")
    #expect(result.output == "com.example.app\n")
    #expect(try sandbox.run("read", "-g", "AppleLocale").output == "en_GB\n")
  }

  @Test(
    "A write that cannot be saved prints its error once",
    .enabled(
      if: ChildProcess.nobodyCanRun("defaults"),
      "as root the tool runs as nobody, who cannot reach the build or the temporary directory"))
  func unsavableWritePrintsOneError() throws {
    let sandbox = Sandbox()
    chmod(sandbox.directory.path, 0o555)
    defer { chmod(sandbox.directory.path, 0o700) }
    // Root writes anywhere, so as root the tool runs as nobody (65534), for whom the
    // directory (under the world-traversable temporary directory) is read-only.
    let tool = ChildProcess.buildDirectory.appendingPathComponent("defaults").path
    let command = ChildProcess.commandAsNobody([tool])
    let errors = Pipe()
    let process = try SpawnedProcess(
      URL(fileURLWithPath: command[0]), Array(command.dropFirst()) + ["write", "app", "k", "v"],
      environment: ["XDG_CONFIG_HOME": sandbox.directory.path, "HOME": sandbox.directory.path],
      error: errors)
    let report = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1)
    let lines = report.split(separator: "\n")
    #expect(lines.count == 1 && lines.first?.hasPrefix("Could not save:") == true, "\(report)")
  }

  @Test func everyTypeFlagWritesItsType() throws {
    let sandbox = Sandbox()
    let writes: [[String]] = [
      ["s", "plain text"], ["typed", "-string", "42"], ["i", "-int", "-3"],
      ["i2", "-integer", "9"],
      ["f", "-float", "2.5"], ["b", "-bool", "true"], ["b2", "-boolean", "NO"],
      ["d", "-date", "2026-11-29 13:40:18 +0000"], ["x", "-data", "00ff"],
      ["a", "-array", "one", "-int", "2"], ["m", "-dict", "k", "v", "n", "-int", "1"],
      ["p", "{ a = 1; }"],
    ]
    for write in writes {
      let result = try sandbox.run(["write", "app"] + write)
      #expect(result.status == 0, "\(write): \(result.error)")
    }
    let values = try sandbox.values("app")
    #expect(values["s"] as? String == "plain text")
    #expect(values["typed"] as? String == "42")
    #expect(values["i"] as? Int == -3)
    #expect(values["i2"] as? Int == 9)
    #expect(values["f"] as? Double == 2.5)
    #expect(values["b"] as? Bool == true)
    #expect(values["b2"] as? Bool == false)
    #expect(values["d"] as? Date == PropertyListDate.parse("2026-11-29 13:40:18 +0000"))
    #expect(values["x"] as? Data == Data([0, 255]))
    #expect((values["a"] as? [Any]).map { "\($0)" } == "[\"one\", 2]")
    #expect((values["m"] as? [String: Any])?["n"] as? Int == 1)
    #expect((values["p"] as? [String: Any])?["a"] as? String == "1")
    #expect(try sandbox.run("read-type", "app", "i").output == "Type is integer\n")
    #expect(try sandbox.run("read-type", "app", "f").output == "Type is float\n")
    #expect(try sandbox.run("read-type", "app", "b").output == "Type is boolean\n")
    #expect(try sandbox.run("read-type", "app", "d").output == "Type is date\n")
    #expect(try sandbox.run("read-type", "app", "x").output == "Type is data\n")
    #expect(try sandbox.run("read-type", "app", "a").output == "Type is array\n")
    #expect(try sandbox.run("read-type", "app", "m").output == "Type is dictionary\n")
    #expect(try sandbox.run("read-type", "app", "s").output == "Type is string\n")
  }

  @Test func readDomainsFindRenameDeleteAndAddVerbs() throws {
    let sandbox = Sandbox()
    try sandbox.run("write", "app", "name", "Ada")
    try sandbox.run("write", "other", "count", "-int", "2")
    #expect(try sandbox.run("domains").output == "app, other\n")
    #expect(try sandbox.run("read", "app", "name").output == "Ada\n")
    #expect(try sandbox.run("read", "app").output == "{\n    name = Ada;\n}\n")
    #expect(try sandbox.run("read").output.contains("count = 2;"))
    #expect(try sandbox.run("find", "ada").output.hasPrefix("Found 1 keys in domain 'app'"))
    #expect(try sandbox.run("find", "zzz").output == "No domain, key, nor value containing 'zzz'\n")

    #expect(try sandbox.run("rename", "app", "name", "fullName").status == 0)
    #expect(try sandbox.values("app")["fullName"] as? String == "Ada")
    #expect(try sandbox.values("app")["name"] == nil)

    try sandbox.run("write", "app", "list", "-array", "a")
    try sandbox.run("write", "app", "list", "-array-add", "b", "-int", "3")
    #expect((try sandbox.values("app")["list"] as? [Any]).map { "\($0)" } == "[\"a\", \"b\", 3]")
    try sandbox.run("write", "app", "map", "-dict", "a", "1")
    try sandbox.run("write", "app", "map", "-dict-add", "b", "-int", "2")
    let map = try #require(try sandbox.values("app")["map"] as? [String: Any])
    #expect(map["a"] as? String == "1" && map["b"] as? Int == 2)

    #expect(try sandbox.run("delete", "app", "fullName").status == 0)
    #expect(try sandbox.values("app")["fullName"] == nil)
    #expect(try sandbox.run("delete", "other").status == 0)
    #expect(try sandbox.run("domains").output == "app\n")
  }

  @Test func errorsHaveMacOSMessagesAndExitStatusOne() throws {
    let sandbox = Sandbox()
    try sandbox.run("write", "app", "k", "v")
    let cases: [([String], String)] = [
      (["read", "missing"], "Domain missing does not exist"),
      (["read", "app", "nokey"], "The domain/default pair of (app, nokey) does not exist"),
      (["read-type", "app", "nokey"], "The domain/default pair of (app, nokey) does not exist"),
      (["delete", "missing"], "Domain (missing) not found.\nDefaults have not been changed."),
      (
        ["delete", "app", "nokey"],
        "Domain (app) key (nokey) not found.\nDefaults have not been changed."
      ),
      (["rename", "app", "nokey", "x"], "Key nokey does not exist in domain app; not renamed"),
      (["write", "app", "k", "-int", "abc"], "defaults: \"abc\" is not an integer"),
      (["write", "app", "k", "(unclosed"], "Could not parse: (unclosed.  Try single-quoting it."),
      (["write", "..", "k", "v"], "bad domain name: \"..\" does not name a file"),
      (["write", "a..b", "k", "v"], "bad domain name: suite name \"a..b\" contains \"..\""),
      (["export", "missing", "-"], "Domain missing does not exist"),
      (["import", "app", "/nonexistent/file.plist"], "Could not read /nonexistent/file.plist"),
      (["bogus"], "defaults: unknown verb \"bogus\""),
      (["read-type", "app"], "defaults: wrong number of arguments for read-type"),
    ]
    for (arguments, message) in cases {
      let result = try ChildProcess.run("defaults", arguments, environment: sandbox.environment)
      #expect(result.status == 1, "\(arguments)")
      #expect(result.error.hasPrefix(message), "\(arguments): \(result.error)")
    }
    // Adding to a value that is not an array is refused and changes nothing.
    let notArray = try sandbox.run("write", "app", "k", "-array-add", "x")
    #expect(notArray.status == 1 && notArray.error.hasPrefix("Value for key k is not an array"))
    #expect(try sandbox.values("app")["k"] as? String == "v")
    // An unreadable file is reported, not replaced.
    let path = sandbox.directory.path + "/broken.plist"
    _ = FileManager.default.createFile(atPath: path, contents: Data("garbage".utf8))
    let broken = try sandbox.run("read", "broken")
    #expect(broken.status == 1 && broken.error.hasPrefix("Cannot read \(path)"))
    #expect(FileManager.default.contents(atPath: path) == Data("garbage".utf8))
    #expect(try sandbox.run("help").status == 0)
    #expect(try sandbox.run("help", "write").output.contains("-array-add"))
  }

  @Test("Export, import and export again give the same file, byte for byte, in the domain's format")
  func exportImportRoundTripIsByteForByte() throws {
    let sandbox = Sandbox()
    for write in [
      ["s", "text & <markup>"], ["i", "-int", "7"], ["f", "-float", "0.1"], ["b", "-bool", "yes"],
      ["d", "-date", "2001-01-01 00:00:00 +0000"], ["x", "-data", "cafe"],
      ["a", "-array", "x", "-int", "1"], ["m", "-dict", "k", "-float", "1.5"],
    ] {
      try sandbox.run(["write", "source"] + write)
    }
    let first = sandbox.directory.path + "/first.plist"
    let second = sandbox.directory.path + "/second.plist"
    #expect(try sandbox.run("export", "source", first).status == 0)
    #expect(try sandbox.run("import", "copy", first).status == 0)
    #expect(try sandbox.run("export", "copy", second).status == 0)
    let firstData = try #require(FileManager.default.contents(atPath: first))
    #expect(firstData == FileManager.default.contents(atPath: second))
    // The domain's file is binary (new files are), so is its export to a file; standard
    // output is XML, as on macOS, with the same values.
    #expect(firstData.starts(with: Array("bplist00".utf8)))
    let text = try sandbox.run("export", "copy", "-").output
    #expect(text.hasPrefix("<?xml"))
    let fromText = try #require(PreferencesFile.dictionary(in: Data(text.utf8)))
    let fromFile = try #require(PreferencesFile.dictionary(in: firstData))
    #expect(PropertyListEquality.isEqual(fromText, fromFile))
    // A binary property list imports too.
    let values = try sandbox.values("source")
    let binary = try PropertyListSerialization.data(
      fromPropertyList: values, format: .binary, options: 0)
    let binaryPath = sandbox.directory.path + "/binary.bplist"
    _ = FileManager.default.createFile(atPath: binaryPath, contents: binary)
    #expect(try sandbox.run("import", "frombinary", binaryPath).status == 0)
    #expect(try sandbox.values("frombinary")["i"] as? Int == 7)
  }

  @Test("A write by the tool reaches a running process that uses the library")
  func toolWritesAreObservedByARunningApp() throws {
    let sandbox = Sandbox()
    try sandbox.run("write", "live", "counter", "-int", "1")
    let app = try RunningChild(
      "UserDefaultTestHelper", ["observe", "live", "counter", "42"],
      environment: ["XDG_CONFIG_HOME": sandbox.directory.path, "HOME": sandbox.directory.path])
    app.readUntil("ready")
    #expect(try sandbox.run("write", "live", "counter", "-int", "42").status == 0)
    let text = app.finish()
    #expect(text.contains("observed 42"), "\(text)")
    #expect(app.process.terminationStatus == 0)
  }

  @Test("watch prints each change as it happens")
  func watchPrintsChanges() throws {
    let sandbox = Sandbox()
    try sandbox.run("write", "watched", "k", "-int", "1")
    let watcher = try RunningChild(
      "defaults", ["watch", "watched"],
      environment: ["XDG_CONFIG_HOME": sandbox.directory.path, "HOME": sandbox.directory.path])
    // Bound the whole exchange: stopping the watcher ends the reads below.
    let process = watcher.process
    DispatchQueue.global().asyncAfter(deadline: .now() + 20) { process.terminate() }
    #expect(watcher.readUntil("Watching").contains("Watching watched"))
    try sandbox.run("write", "watched", "k", "-int", "5")
    #expect(watcher.readUntil("k = 5").contains("k = 5"))
    try sandbox.run("delete", "watched", "k")
    #expect(watcher.readUntil("k deleted").contains("k deleted"))
    watcher.stop()
  }

  @Test func readTypeShowsTheDeclaredTypeFromAPublishedRegistry() throws {
    let sandbox = Sandbox()
    Diagnostics.installRecorder()
    let key = UserDefaults.Key<Int>("tool.declared.\(UUID().uuidString.prefix(6))", default: 12)
    let store = try PreferencesStore(suiteName: "declared", directory: sandbox.directory.path)
    store[key] = 3
    try store.flush()
    try store.publishKeyRegistry()
    let result = try sandbox.run("read-type", "declared", key.name)
    #expect(result.output.hasPrefix("Type is integer\nDeclared as Int, default 12, by Key "))
  }
}

/// Dates as the tool prints and parses them.
enum PropertyListDate {
  static func parse(_ text: String) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
    return formatter.date(from: text)
  }
}

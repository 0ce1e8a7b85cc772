import Foundation
import Testing

@testable import PropertyListCodec
@testable import UserDefault

/// The 56 real macOS preference files of `.preference-files/` (a copy of the project's
/// corpus, `../shared/corpora/preference-files`, whose README says where each comes from;
/// a hidden folder, so the package manager does not take the files for resources).
///
/// Each is placed as a suite's file; one key is written through a store and flushed; the
/// file must then hold every original value with its exact type (dates to the bit, -0.0,
/// UIDs), keep its format, and be read by python3's `plistlib`, an independent reader, as
/// the original is. `defaults export <suite> -` must give the same values.
@Suite("Real preference files are rewritten and exported exactly")
struct PreferenceFileCorpusTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent(".preference-files/files")

  static let names: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".plist") }.sorted()
  }()

  /// Prints `same` when both files hold the same values, type for type (plistlib's
  /// types; reals by bit pattern, dates to plistlib's microsecond, UIDs by number),
  /// leaving out the keys named after the two paths; else the first difference.
  static let comparison = """
    import plistlib, struct, sys, datetime
    def canon(v):
        if isinstance(v, bool): return ("bool", v)
        if isinstance(v, int): return ("integer", v)
        if isinstance(v, float): return ("real", struct.pack(">d", v).hex())
        if isinstance(v, str): return ("string", v)
        if isinstance(v, bytes): return ("data", v)
        if isinstance(v, datetime.datetime): return ("date", v.isoformat())
        if isinstance(v, plistlib.UID): return ("uid", v.data)
        if v is None: return ("null",)
        if isinstance(v, list): return ("array", [canon(e) for e in v])
        if isinstance(v, dict): return ("dictionary", sorted((k, canon(e)) for k, e in v.items()))
        return ("other", repr(v))
    a, b = (plistlib.load(open(p, "rb")) for p in sys.argv[1:3])
    for k in sys.argv[3:]: b.pop(k, None)
    if canon(a) == canon(b): print("same")
    else:
        keys = sorted(set(a) | set(b))
        bad = next(k for k in keys if k not in a or k not in b or canon(a[k]) != canon(b[k]))
        print("differs at", repr(bad))
    """

  /// What python3's `plistlib` says of `result` against `original`.
  static func plistlibComparison(
    _ original: String, _ result: String, ignoring keys: [String] = []
  ) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", comparison, original, result] + keys
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return text.isEmpty ? "plistlib failed: \(problem.suffix(300))" : text
  }

  static func isBinary(_ path: String) -> Bool {
    FileManager.default.contents(atPath: path)?.starts(with: Array("bplist".utf8)) == true
  }

  @Test func theCorpusIsHere() {
    #expect(Self.names.count == 56)
  }

  @Test("A rewrite through the store keeps every value, type and the format", arguments: names)
  func rewriteKeepsEverything(_ name: String) throws {
    let directory = TemporaryDirectory()
    let suite = String(name.dropLast(".plist".count))
    let path = directory.path + "/" + name
    let original = directory.path + "/original.plist"
    try FileManager.default.copyItem(
      atPath: Self.folder.appendingPathComponent(name).path, toPath: path)
    try FileManager.default.copyItem(atPath: path, toPath: original)
    let before = try #require(try PreferencesFile(directory: directory.path, suite: suite).values())

    Diagnostics.installRecorder()
    let store = try PreferencesStore(suiteName: suite, directory: directory.path)
    store.set("added", forKey: "corpus.probe")
    try store.flush()
    let events = Diagnostics.events { $0.suite == suite }
    #expect(events.isEmpty, "\(events)")
    #expect(Self.isBinary(path) == Self.isBinary(original), "the format changed")

    let after = try #require(try PreferencesFile(directory: directory.path, suite: suite).values())
    #expect(after.count == before.count + 1)
    #expect(after["corpus.probe"] as? String == "added")
    for (key, value) in before {
      let kept = after[key].map { PreferencesFileValues.isExactlyEqual($0, value) } ?? false
      #expect(kept, "\(key)")
    }
    #expect(try Self.plistlibComparison(original, path, ignoring: ["corpus.probe"]) == "same\n")
  }

  // .linuxFiles: the tool finds the file through XDG_CONFIG_HOME; on a Mac it would use the
  // real Application Support.
  @Test("defaults export <suite> - gives the original's values", .linuxFiles, arguments: names)
  func exportKeepsEverything(_ name: String) throws {
    let directory = TemporaryDirectory()
    let suite = String(name.dropLast(".plist".count))
    let path = directory.path + "/" + name
    try FileManager.default.copyItem(
      atPath: Self.folder.appendingPathComponent(name).path, toPath: path)
    let exported = directory.path + "/exported"
    _ = FileManager.default.createFile(atPath: exported, contents: nil)
    let process = Process()
    process.executableURL = ChildProcess.buildDirectory.appendingPathComponent("defaults")
    process.arguments = ["export", suite, "-"]
    process.environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: exported))
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(problem)")
    #expect(try Self.plistlibComparison(path, exported) == "same\n")
    let before = try #require(try PreferencesFile(directory: directory.path, suite: suite).values())
    let data = try #require(FileManager.default.contents(atPath: exported))
    let after = try #require(PreferencesFile.dictionary(in: data))
    #expect(after.count == before.count)
    for (key, value) in before {
      let kept = after[key].map { PreferencesFileValues.isExactlyEqual($0, value) } ?? false
      #expect(kept, "\(key)")
    }
    // Standard output is XML, as macOS writes it, unless XML cannot hold a value; then
    // binary, and one line says so.
    #expect(Self.isBinary(exported) == !problem.isEmpty, "\(problem)")
  }

  @Test("The CopyQ file's values, written into an XML file, make it binary, reported once")
  func copyQValuesTurnAnXMLFileBinary() throws {
    let directory = TemporaryDirectory()
    let copyQ = Self.folder.appendingPathComponent("45-copyq-mellbourn.plist").path
    let bytes = try #require(FileManager.default.contents(atPath: copyQ))
    let values = try #require(PreferencesFile.dictionary(in: bytes))
    Diagnostics.installRecorder()
    let suite = "copyq-" + UUID().uuidString
    let path = directory.path + "/\(suite).plist"
    let store = try PreferencesStore(suiteName: suite, directory: directory.path, format: .xml)
    store.set("plain", forKey: "first")
    try store.flush()
    #expect(!Self.isBinary(path))
    for (key, value) in values { store.set(value, forKey: key) }
    try store.flush()
    store.set("again", forKey: "first")
    try store.flush()
    #expect(Self.isBinary(path))
    let events = Diagnostics.events { $0.suite == suite }
    let reports = events.filter { $0.kind == .changedFormat }
    #expect(reports.count == 1, "\(events)")
    #expect(events.count == reports.count, "\(events)")
    let message = reports.first?.message ?? ""
    #expect(message.contains("\(suite).plist") && message.contains("binary"), "\(message)")
    // The keys named are those XML cannot hold: strings with control characters.
    let named = values.filter { PropertyListXMLWriter.data(for: [$0.key: $0.value]) == nil }
    #expect(!named.isEmpty)
    for key in named.keys { #expect(message.contains(key.debugDescription) || named.count > 5) }
    #expect(try Self.plistlibComparison(copyQ, path, ignoring: ["first"]) == "same\n")
  }
}

/// Exact equality of a file's values: property-list equality, and reals and dates by bit
/// pattern (`==` calls -0.0 and 0.0 equal).
enum PreferencesFileValues {
  static func isExactlyEqual(_ lhs: Any, _ rhs: Any) -> Bool {
    guard PropertyListEquality.isEqual(lhs, rhs) else { return false }
    if let lhs = lhs as? Date, let rhs = rhs as? Date {
      return lhs.timeIntervalSinceReferenceDate.bitPattern
        == rhs.timeIntervalSinceReferenceDate.bitPattern
    }
    if let lhs = lhs as? [Any], let rhs = rhs as? [Any] {
      return zip(lhs, rhs).allSatisfy { isExactlyEqual($0, $1) }
    }
    if let lhs = lhs as? [String: Any], let rhs = rhs as? [String: Any] {
      return lhs.allSatisfy { key, value in rhs[key].map { isExactlyEqual(value, $0) } ?? false }
    }
    return true
  }
}

import Foundation
import Testing

@testable import UserDefault

@Suite("Round trips of every built-in type")
struct RoundTripTests {
  func roundTrip<Value: Equatable & Sendable>(_ value: Value, default fallback: Value) {
    let suite = TestSuite()
    // The internal initializer: the public ones take only types known to be storable.
    let key = UserDefaults.Key<Value>(
      name: uniqueKey(), defaultValue: .constant(fallback), bridge: .shared, file: #fileID,
      line: #line)
    suite.defaults[key] = value
    #expect(suite.defaults[key] == value)
    // A write drops the cached value, so the read above decoded what Foundation holds;
    // a second instance of the suite reads the same.
    let other = UserDefaults(suiteName: suite.name)!
    #expect(other[key] == value)
    #expect(suite.diagnostics.isEmpty)
  }

  @Test func primitivesKeepTheirExactValue() {
    roundTrip(true, default: false)
    roundTrip("text with \n newline", default: "")
    roundTrip(Data([0, 255]), default: Data())
    roundTrip(Date(timeIntervalSinceReferenceDate: 12.345_678), default: .distantPast)
    roundTrip(Int.max, default: 0)
    roundTrip(Int8.min, default: 0)
    roundTrip(Int16.min, default: 0)
    roundTrip(Int32.min, default: 0)
    roundTrip(Int64.min, default: 0)
    roundTrip(UInt.max, default: 0)
    roundTrip(UInt8.max, default: 0)
    roundTrip(UInt16.max, default: 0)
    roundTrip(UInt32.max, default: 0)
    roundTrip(UInt64.max, default: 0)
    roundTrip(Float(0.1), default: 0)
    roundTrip(Double.pi, default: 0)
    roundTrip(Decimal(string: "1.1")!, default: 0)
    roundTrip(URL(string: "https://example.com/a?q=1#f")!, default: URL(string: "about:blank")!)
    roundTrip(URL(fileURLWithPath: "/tmp/a b"), default: URL(string: "about:blank")!)
    roundTrip(UUID(), default: UUID())
  }

  @Test func negativeZeroKeepsItsSign() {
    let suite = TestSuite()
    let key = UserDefaults.Key<Double>(uniqueKey(), default: 1)
    suite.defaults[key] = -0.0
    #expect(suite.defaults[key].sign == .minus)
  }

  @Test func notANumberStaysNotANumber() {
    let suite = TestSuite()
    let key = UserDefaults.Key<Double>(uniqueKey(), default: 1)
    suite.defaults[key] = .nan
    #expect(suite.defaults[key].isNaN)
  }

  @Test func collectionsAndOptionals() {
    roundTrip([1, 2, 3], default: [])
    roundTrip(Set(["a", "b"]), default: [])
    roundTrip(["a": [1.5], "b": []], default: [:])
    roundTrip([Theme.dark, .light], default: [])
    roundTrip(Int?.some(4), default: nil)
    roundTrip([Profile(name: "a", age: 1)], default: [])
  }

  /// Through the public initializers, with types that declare nothing of the library's
  /// (`Theme` is only `RawRepresentable`, `Mode` also `Codable`, `Profile` only `Codable`):
  /// the overload the compiler picks decides how each is stored, and it reads back.
  @Test func rawRepresentableAndCodableNeedNoDeclaration() {
    let suite = TestSuite()
    func expectRoundTrip<Value: Equatable>(_ key: UserDefaults.Key<Value>, _ value: Value) {
      suite.defaults[key] = value
      #expect(suite.defaults[key] == value)
      #expect(UserDefaults(suiteName: suite.name)![key] == value)
    }
    expectRoundTrip(UserDefaults.Key<Theme>(uniqueKey(), default: .system), .dark)
    expectRoundTrip(UserDefaults.Key<Mode>(uniqueKey(), default: .fast), .slow)
    expectRoundTrip(
      UserDefaults.Key<Profile>(uniqueKey(), default: Profile(name: "", age: 0)),
      Profile(name: "Ada", age: 36))
    expectRoundTrip(UserDefaults.Key<[Theme]>(uniqueKey(), default: []), [.dark, .light])
    expectRoundTrip(
      UserDefaults.Key<[Profile]>(uniqueKey(), default: []), [Profile(name: "B", age: 2)])
    expectRoundTrip(UserDefaults.Key<Theme?>(uniqueKey()), .light)
    expectRoundTrip(UserDefaults.Key<Profile?>(uniqueKey()), Profile(name: "C", age: 3))
    #expect(suite.diagnostics.isEmpty)
  }

  @Test func rawRepresentableCodableIsStoredAsItsRawValue() {
    let suite = TestSuite()
    let name = uniqueKey()
    suite.defaults[UserDefaults.Key<Mode>(name, default: .fast)] = .slow
    #expect(suite.defaults.string(forKey: name) == "slow")
    Flavor.sour.store(in: suite.defaults, withKey: name)
    #expect(suite.defaults.string(forKey: name) == "sour")
  }

  @Test func nativeTypesArePlainFoundationValues() {
    let suite = TestSuite()
    let defaults = suite.defaults
    defaults[UserDefaults.Key<Int>("i", default: 0)] = 42
    defaults[UserDefaults.Key<String>("s", default: "")] = "x"
    defaults[UserDefaults.Key<Bool>("b", default: false)] = true
    defaults[UserDefaults.Key<Double>("d", default: 0)] = 2.5
    defaults[UserDefaults.Key<[String]>("a", default: [])] = ["p", "q"]
    defaults[UserDefaults.Key<[Theme]>("t", default: [])] = [.dark]
    #expect(defaults.integer(forKey: "i") == 42)
    #expect(defaults.string(forKey: "s") == "x")
    #expect(defaults.bool(forKey: "b"))
    #expect(defaults.double(forKey: "d") == 2.5)
    #expect(defaults.stringArray(forKey: "a") == ["p", "q"])
    #expect(defaults.stringArray(forKey: "t") == ["dark"])
  }

  @Test func codableValuesAreStoredAsJSONText() {
    let suite = TestSuite()
    let name = uniqueKey()
    suite.defaults[UserDefaults.Key<Profile>(name, default: Profile(name: "", age: 0))] = Profile(
      name: "Ada", age: 36)
    #expect(suite.defaults.string(forKey: name) == #"{"age":36,"name":"Ada"}"#)
  }

  @Test(
    "Values survive a restart of the process (helper writes, a second helper reads)", .linuxFiles)
  func valuesSurviveAProcessRestart() throws {
    let directory = TemporaryDirectory()
    let suite = "roundtrip-\(UUID().uuidString)"
    let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    let write = try ChildProcess.run(
      "UserDefaultTestHelper", ["write", suite], environment: environment)
    #expect(write.status == 0)
    #expect(write.output.isEmpty, "in-process mismatches: \(write.output)")
    // The writer never called synchronize(): the library saved at exit.
    #expect(FileManager.default.fileExists(atPath: directory.path + "/\(suite).plist"))
    try Self.expectSamplesRead(by: "read", suite: suite, environment: environment, atLeast: 30)
  }

  /// Foundation's own `synchronize()` on Linux writes XML, which keeps dates to whole
  /// seconds and `-0.0` as `0.0`, and its next call reads that file back into memory:
  /// every sample must read back to the bit in the process that synchronized, in processes
  /// that read the file afterwards through either backend, and in a suite the file was
  /// copied to by `defaults export` and `defaults import`.
  @Test(
    "Values are exact after synchronize() twice, and in processes that read the file next",
    .linuxFiles, arguments: ["foundation", "store"])
  func valuesSurviveSynchronize(_ backend: String) throws {
    let directory = TemporaryDirectory()
    let suite = "synchronized-\(UUID().uuidString)"
    let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    let write = try ChildProcess.run(
      "UserDefaultTestHelper", ["synchronize", suite, backend], environment: environment)
    #expect(write.status == 0, "\(write.error)")
    #expect(write.output == "synchronized\n", "in-process mismatches: \(write.output)")
    // Then the file goes through `defaults export` and `defaults import` into another suite.
    let copy = suite + "-copy"
    let exported = directory.path + "/exported.plist"
    for arguments in [["export", suite, exported], ["import", copy, exported]] {
      let tool = try ChildProcess.run("defaults", arguments, environment: environment)
      #expect(tool.status == 0, "\(arguments[0]): \(tool.error)")
    }
    for (reader, name) in [("read", suite), ("exact-read", suite), ("read", copy)] {
      try Self.expectSamplesRead(by: reader, suite: name, environment: environment)
    }
  }

  /// Migrations move values as stored objects: every sample, moved to another name and
  /// back by `Migration.rename`, reads back to the bit in processes that read the file.
  @Test(
    "Values are exact after migrations move them, in processes that read the file next",
    .linuxFiles, arguments: ["foundation", "store"])
  func valuesSurviveMigrations(_ backend: String) throws {
    let directory = TemporaryDirectory()
    let suite = "migrated-\(UUID().uuidString)"
    let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    let migrate = try ChildProcess.run(
      "UserDefaultTestHelper", ["migrate-samples", suite, backend], environment: environment)
    #expect(migrate.status == 0, "\(migrate.error)")
    #expect(migrate.output.hasPrefix("migrated "), "\(migrate.output)")
    for reader in ["read", "exact-read"] {
      try Self.expectSamplesRead(by: reader, suite: suite, environment: environment)
    }
  }

  /// Runs the helper's `reader` (`read`: a Foundation instance; `exact-read`: a store) on
  /// `suite` and expects at least `count` samples, each read back as written.
  static func expectSamplesRead(
    by reader: String, suite: String, environment: [String: String], atLeast count: Int = 40
  ) throws {
    let read = try ChildProcess.run(
      "UserDefaultTestHelper", [reader, suite], environment: environment)
    #expect(read.status == 0, "\(read.error)")
    let lines = read.output.split(separator: "\n")
    #expect(lines.count >= count)
    for line in lines { #expect(line.hasSuffix(" ok"), "\(reader) \(suite): \(line)") }
  }
}

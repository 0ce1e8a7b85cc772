import Foundation
import Testing

@testable import PropertyListCodec
@testable import UserDefault

// The same types twice: as first declared, and after a user added a conformance (Codable
// to send a theme over the network, UserDefaultable to silence a compile error). Type
// names never enter what is stored, so a pair in one build stands for one type in two
// builds of a program.
private enum PlainTheme: String, Equatable { case light, dark }
private enum CodableTheme: String, Codable, Equatable { case light, dark }
private enum PlainLevel: Int, Equatable {
  case low = 1
  case high = 2
}
private enum CodableLevel: Int, Codable, Equatable {
  case low = 1
  case high = 2
}
private struct PlainProfile: Codable, Equatable {
  var name: String
  var age: Int
}
private struct DeclaredProfile: Codable, Equatable, UserDefaultable {
  var name: String
  var age: Int
}

/// swift-sharing once changed how a type both `RawRepresentable` and `Codable` was stored
/// (their issue #184). Here a raw value wins over `Codable`, and a `Codable` type stores
/// the same JSON whether or not it also declares `UserDefaultable`: adding either
/// conformance changes nothing stored, and each build reads what the other wrote.
@Suite struct ConformanceStabilityTests {
  /// Writes every shape of the first build's types to `defaults`.
  private static func writeBefore(_ defaults: UserDefaults) {
    defaults[UserDefaults.Key<PlainTheme>("theme", default: .light)] = .dark
    defaults[UserDefaults.Key<[PlainTheme]>("themes", default: [])] = [.dark, .light]
    defaults[UserDefaults.Key<[String: PlainTheme]>("themeByName", default: [:])] = ["a": .dark]
    defaults[UserDefaults.Key<PlainTheme?>("optionalTheme")] = .dark
    defaults[UserDefaults.Key<[PlainTheme]?>("optionalThemes")] = [.light]
    defaults[UserDefaults.Key<PlainLevel>("level", default: .low)] = .high
    defaults[UserDefaults.Key<[PlainLevel]>("levels", default: [])] = [.high, .low]
    defaults[UserDefaults.Key<[String: PlainLevel]>("levelByName", default: [:])] = ["b": .high]
    defaults[UserDefaults.Key<PlainLevel?>("optionalLevel")] = .high
    let ada = PlainProfile(name: "Ada", age: 36)
    defaults[UserDefaults.Key<PlainProfile>("profile", default: PlainProfile(name: "", age: 0))] =
      ada
    defaults[UserDefaults.Key<[PlainProfile]>("profiles", default: [])] = [ada, ada]
    defaults[UserDefaults.Key<[String: PlainProfile]>("profileByName", default: [:])] = ["c": ada]
    defaults[UserDefaults.Key<PlainProfile?>("optionalProfile")] = ada
    defaults[UserDefaults.Key<[PlainProfile]?>("optionalProfiles")] = [ada]
  }

  /// Writes the same values through the second build's types.
  private static func writeAfter(_ defaults: UserDefaults) {
    defaults[UserDefaults.Key<CodableTheme>("theme", default: .light)] = .dark
    defaults[UserDefaults.Key<[CodableTheme]>("themes", default: [])] = [.dark, .light]
    defaults[UserDefaults.Key<[String: CodableTheme]>("themeByName", default: [:])] = ["a": .dark]
    defaults[UserDefaults.Key<CodableTheme?>("optionalTheme")] = .dark
    defaults[UserDefaults.Key<[CodableTheme]?>("optionalThemes")] = [.light]
    defaults[UserDefaults.Key<CodableLevel>("level", default: .low)] = .high
    defaults[UserDefaults.Key<[CodableLevel]>("levels", default: [])] = [.high, .low]
    defaults[UserDefaults.Key<[String: CodableLevel]>("levelByName", default: [:])] = [
      "b": .high
    ]
    defaults[UserDefaults.Key<CodableLevel?>("optionalLevel")] = .high
    let ada = DeclaredProfile(name: "Ada", age: 36)
    defaults[
      UserDefaults.Key<DeclaredProfile>("profile", default: DeclaredProfile(name: "", age: 0))] =
      ada
    defaults[UserDefaults.Key<[DeclaredProfile]>("profiles", default: [])] = [ada, ada]
    defaults[UserDefaults.Key<[String: DeclaredProfile]>("profileByName", default: [:])] = [
      "c": ada
    ]
    defaults[UserDefaults.Key<DeclaredProfile?>("optionalProfile")] = ada
    defaults[UserDefaults.Key<[DeclaredProfile]?>("optionalProfiles")] = [ada]
  }

  /// Whether `defaults` reads back, through the second build's types, what was written.
  private static func readsAfter(_ defaults: UserDefaults) -> Bool {
    let ada = DeclaredProfile(name: "Ada", age: 36)
    return defaults[UserDefaults.Key<CodableTheme>("theme", default: .light)] == .dark
      && defaults[UserDefaults.Key<[CodableTheme]>("themes", default: [])] == [.dark, .light]
      && defaults[UserDefaults.Key<[String: CodableTheme]>("themeByName", default: [:])] == [
        "a": .dark
      ]
      && defaults[UserDefaults.Key<CodableTheme?>("optionalTheme")] == .dark
      && defaults[UserDefaults.Key<[CodableTheme]?>("optionalThemes")] == [.light]
      && defaults[UserDefaults.Key<CodableLevel>("level", default: .low)] == .high
      && defaults[UserDefaults.Key<[CodableLevel]>("levels", default: [])] == [.high, .low]
      && defaults[UserDefaults.Key<[String: CodableLevel]>("levelByName", default: [:])] == [
        "b": .high
      ]
      && defaults[UserDefaults.Key<CodableLevel?>("optionalLevel")] == .high
      && defaults[
        UserDefaults.Key<DeclaredProfile>("profile", default: DeclaredProfile(name: "", age: 0))]
        == ada
      && defaults[UserDefaults.Key<[DeclaredProfile]>("profiles", default: [])] == [ada, ada]
      && defaults[UserDefaults.Key<[String: DeclaredProfile]>("profileByName", default: [:])] == [
        "c": ada
      ]
      && defaults[UserDefaults.Key<DeclaredProfile?>("optionalProfile")] == ada
      && defaults[UserDefaults.Key<[DeclaredProfile]?>("optionalProfiles")] == [ada]
  }

  /// Whether `defaults` reads back, through the first build's types, what was written.
  private static func readsBefore(_ defaults: UserDefaults) -> Bool {
    let ada = PlainProfile(name: "Ada", age: 36)
    return defaults[UserDefaults.Key<PlainTheme>("theme", default: .light)] == .dark
      && defaults[UserDefaults.Key<[PlainTheme]>("themes", default: [])] == [.dark, .light]
      && defaults[UserDefaults.Key<[String: PlainTheme]>("themeByName", default: [:])] == [
        "a": .dark
      ]
      && defaults[UserDefaults.Key<PlainTheme?>("optionalTheme")] == .dark
      && defaults[UserDefaults.Key<[PlainTheme]?>("optionalThemes")] == [.light]
      && defaults[UserDefaults.Key<PlainLevel>("level", default: .low)] == .high
      && defaults[UserDefaults.Key<[PlainLevel]>("levels", default: [])] == [.high, .low]
      && defaults[UserDefaults.Key<[String: PlainLevel]>("levelByName", default: [:])] == [
        "b": .high
      ]
      && defaults[UserDefaults.Key<PlainLevel?>("optionalLevel")] == .high
      && defaults[
        UserDefaults.Key<PlainProfile>("profile", default: PlainProfile(name: "", age: 0))]
        == ada
      && defaults[UserDefaults.Key<[PlainProfile]>("profiles", default: [])] == [ada, ada]
      && defaults[UserDefaults.Key<[String: PlainProfile]>("profileByName", default: [:])] == [
        "c": ada
      ]
      && defaults[UserDefaults.Key<PlainProfile?>("optionalProfile")] == ada
      && defaults[UserDefaults.Key<[PlainProfile]?>("optionalProfiles")] == [ada]
  }

  /// A suite for each of the two builds, made by `make(suffix)`; `stored` gives what a
  /// suite holds (its file's values for a store); `another(suffix)` gives a second object
  /// of that suite, where the backend has one (not an in-memory store, a suite of its own).
  private static func check(
    make: (String) throws -> UserDefaults, stored: (UserDefaults) throws -> [String: Any],
    another: (String) throws -> UserDefaults? = { _ in nil }
  ) throws {
    let before = try make("before")
    let after = try make("after")
    writeBefore(before)
    writeAfter(after)
    let first = try stored(before)
    let second = try stored(after)
    #expect(Set(first.keys) == Set(second.keys))
    #expect(first.count == 14)
    for (name, object) in first {
      let other = try #require(second[name], "\(name)")
      #expect(PropertyListEquality.isEqual(object, other), "\(name): \(object) vs \(other)")
    }
    #expect(readsAfter(before), "the second build reads what the first wrote")
    #expect(readsBefore(after), "the first build reads what the second wrote")
    if let second = try another("before") {
      #expect(readsAfter(second), "another object of the suite reads the same")
    }
  }

  @Test func onAFoundationInstance() throws {
    var suites: [TestSuite] = []
    try Self.check(
      make: { _ in
        suites.append(TestSuite())
        return suites.last!.defaults
      },
      stored: { defaults in
        let name = try #require(suites.first { $0.defaults === defaults }?.name)
        return try #require(defaults.persistentDomain(forName: name))
      },
      another: { _ in UserDefaults(suiteName: suites[0].name) })
  }

  @Test func onAStoreAndItsFile() throws {
    let directory = TemporaryDirectory()
    Diagnostics.installRecorder()
    try Self.check(
      make: { try PreferencesStore(suiteName: $0, directory: directory.path) },
      stored: { defaults in
        let store = try #require(defaults as? PreferencesStore)
        try store.flush()
        let path = try #require(store.filePath)
        let data = try #require(FileManager.default.contents(atPath: path))
        let values = try PropertyListSerialization.propertyList(from: data, format: nil)
        return try #require(values as? [String: Any])
      },
      another: { try PreferencesStore(suiteName: $0, directory: directory.path) })
  }

  @Test func onAnInMemoryStore() throws {
    try Self.check(
      make: { PreferencesStore.inMemory(suiteName: $0) },
      stored: { $0.dictionaryRepresentation() })
  }

  /// Earlier versions stored a collection of plain `Codable` elements as one JSON string:
  /// it reads through the type that wrote it (one that did not declare `UserDefaultable`,
  /// whose collections were always stored element by element).
  @Test func aCollectionStoredAsOneJSONStringStillReads() {
    let suite = TestSuite()
    let ada = #"{"age":36,"name":"Ada"}"#
    suite.defaults.set("[\(ada)]", forKey: "profiles")
    suite.defaults.set(#"{"c":\#(ada)}"#, forKey: "profileByName")
    suite.defaults.set("not a list", forKey: "names")
    let expected = PlainProfile(name: "Ada", age: 36)
    #expect(suite.defaults[UserDefaults.Key<[PlainProfile]>("profiles", default: [])] == [expected])
    #expect(
      suite.defaults[UserDefaults.Key<[String: PlainProfile]>("profileByName", default: [:])] == [
        "c": expected
      ])
    #expect(suite.defaults[UserDefaults.Key<[String]>("names", default: ["x"])] == ["x"])
    #expect(suite.diagnostics.map(\.kind) == [.wrongType], "only the text under [String]")
  }
}

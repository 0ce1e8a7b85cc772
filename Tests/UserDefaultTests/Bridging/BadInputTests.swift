import Foundation
import Testing

@testable import UserDefault

@Suite("Bad stored values and values Foundation cannot store")
struct BadInputTests {
  @Test func wrongTypedValueReadsDefaultIsReportedAndIsLeftAlone() {
    let suite = TestSuite()
    let defaults = suite.defaults
    defaults.set("not a number", forKey: "count")
    defaults.set("kept", forKey: "other")
    let key = UserDefaults.Key<Int>("count", default: 7)
    #expect(defaults[key] == 7)
    #expect(defaults[key] == 7)
    #expect(suite.diagnostics.map(\.kind) == [.wrongType], "reported once per stored value")
    #expect(
      suite.diagnostics.first?.message
        == "expected Int, found String not a number; reading the default instead, the stored "
        + "value is left as it is")
    #expect(defaults.string(forKey: "count") == "not a number")
    #expect(defaults.string(forKey: "other") == "kept")
  }

  /// A bad value is reported once per time it is stored: written again after a good one,
  /// it is reported again, on a Foundation instance (whose writes keep the decoded-value
  /// cache's entries and drop only its record of a failure) as on a store. Both a key whose
  /// success is not cached (`Int`) and one whose is (`Codable`), the latter with no read of
  /// the good value in between.
  @Test func aBadValueStoredAgainIsReportedAgain() {
    let suite = TestSuite()
    for defaults in [suite.defaults, PreferencesStore.inMemory()] {
      let name = uniqueKey()
      let text = UserDefaults.Key<String>(name, default: "")
      let number = UserDefaults.Key<Int>(name, default: 7)
      let counted = UserDefaults.Key<Counted?>(name)
      func reports() -> [DefaultsDiagnostic.Kind] {
        Diagnostics.events(forKey: name).map(\.kind).filter { $0 != .keyCollision }
      }
      defaults[text] = "abc"
      #expect(defaults[number] == 7)
      #expect(defaults[number] == 7)
      #expect(reports() == [.wrongType])
      defaults[number] = 5
      #expect(defaults[number] == 5)
      defaults[text] = "abc"
      #expect(defaults[number] == 7)
      #expect(reports() == [.wrongType, .wrongType])

      #expect(defaults[counted] == nil)
      #expect(defaults[counted] == nil)
      #expect(reports().last == .undecodableValue)
      let before = reports().count
      defaults[counted] = Counted(value: 1)
      defaults[text] = "abc"
      #expect(defaults[counted] == nil)
      #expect(reports().count == before + 1)
    }
  }

  /// `defaults write app volume 7` stores the text "7": the report names the type flag.
  @Test(arguments: [("7", "-int 7"), ("2.5", "-float 2.5"), ("YES", "-bool YES")])
  func textThatReadsAsTheTypeNamesTheFix(text: String, flag: String) {
    let suite = TestSuite()
    suite.defaults.set(text, forKey: "volume")
    switch flag.prefix(3) {
    case "-in": #expect(suite.defaults[UserDefaults.Key<Int>("volume", default: 1)] == 1)
    case "-fl": #expect(suite.defaults[UserDefaults.Key<Double>("volume", default: 1)] == 1)
    default: #expect(suite.defaults[UserDefaults.Key<Bool>("volume", default: false)] == false)
    }
    let message = suite.diagnostics.first?.message ?? ""
    #expect(message.contains("`defaults write \(suite.name) volume \(flag)`"), "\(message)")
  }

  /// Regression: text registered as a default was reported with a `defaults write` fix,
  /// which writes the suite's own value and cannot change a registered one.
  @Test(
    "Text registered as a default names no defaults write fix; the suite's own text does",
    arguments: BackendKind.allCases)
  func registeredTextNamesNoDefaultsWriteFix(_ kind: BackendKind) {
    let (a, b, keepAlive) = kind.makeSuite()
    let name = uniqueKey()
    let key = UserDefaults.Key<Int>(name, default: 1)
    a.register(defaults: [name: "7"])
    #expect(a[key] == 1)
    let registered = Diagnostics.events(forKey: name).map(\.message)
    #expect(registered.count == 1)
    #expect(registered.allSatisfy { !$0.contains("defaults write") }, "\(registered)")
    b.set("8", forKey: name)
    #expect(a[key] == 1)
    let own = Diagnostics.events(forKey: name).map(\.message).dropFirst()
    #expect(own.count == 1)
    #expect(own.allSatisfy { $0.contains("\(name) -int 8`") }, "\(own)")
    withExtendedLifetime(keepAlive) {}
  }

  @Test func corruptJSONReadsDefaultAndIsReported() {
    let suite = TestSuite()
    suite.defaults.set(#"{"name": "Ada", "age": "#, forKey: "profile")
    let key = UserDefaults.Key<Profile?>("profile")
    #expect(suite.defaults[key] == nil)
    #expect(suite.diagnostics.map(\.kind) == [.undecodableValue])
    #expect(suite.defaults.string(forKey: "profile") == #"{"name": "Ada", "age": "#)
  }

  @Test func invalidRawValueReadsDefault() {
    let suite = TestSuite()
    suite.defaults.set("neon", forKey: "theme")
    #expect(suite.defaults[UserDefaults.Key<Theme>("theme", default: .light)] == .light)
    #expect(suite.diagnostics.map(\.kind) == [.undecodableValue])
  }

  @Test func integerOutOfRangeIsAWrongType() {
    let suite = TestSuite()
    suite.defaults.set(300, forKey: "small")
    #expect(suite.defaults[UserDefaults.Key<Int8>("small", default: 1)] == 1)
    #expect(suite.diagnostics.map(\.kind) == [.wrongType])
  }

  @Test("A collection with one bad element fails whole and says which element")
  func collectionWithOneBadElementIsReported() {
    let suite = TestSuite()
    suite.defaults.set([1, 2, "three"], forKey: "numbers")
    #expect(suite.defaults[UserDefaults.Key<[Int]>("numbers", default: [])] == [])
    #expect(suite.diagnostics.first?.message.contains("element 2") == true)
    #expect(suite.defaults.array(forKey: "numbers")?.count == 3)
  }

  @Test func nonPropertyListAnyIsRefusedAndNothingIsWritten() {
    let suite = TestSuite()
    suite.defaults.set(["kept"], forKey: "list")
    #expect(throws: DefaultsError.self) {
      try suite.defaults.store(["ok", Theme.dark] as [Any], forKey: "list")
    }
    #expect(suite.defaults.stringArray(forKey: "list") == ["kept"])
    #expect(throws: DefaultsError.self) {
      try suite.defaults.store(["k": ["nested": UUID()]] as [String: Any], forKey: "dict")
    }
    #expect(suite.defaults.object(forKey: "dict") == nil)
    #expect(throws: DefaultsError.self) {
      try suite.defaults.store([1: "int keys"] as [Int: String], forKey: "dict")
    }
  }

  @Test func nilInsideACollectionIsRefused() {
    let suite = TestSuite()
    suite.defaults[UserDefaults.Key<[String?]>("list", default: [])] = ["a", nil]
    #expect(suite.defaults.object(forKey: "list") == nil)
    #expect(suite.diagnostics.map(\.kind) == [.refusedValue])
  }

  /// The public initializers refuse such a type at compile time (see
  /// scripts/macro-diagnostics/unstorable-key.swift); a generic caller of the internal one still
  /// reaches the run-time answer, which must not crash.
  @Test func unsupportedTypeIsRefusedNotCrashed() {
    final class Opaque: @unchecked Sendable {}  // holds nothing: trivially safe
    let suite = TestSuite()
    let key = UserDefaults.Key<Opaque?>(
      name: uniqueKey(), defaultValue: .constant(nil), bridge: .shared, file: #fileID,
      line: #line)
    suite.defaults[key] = Opaque()
    #expect(suite.defaults[key] == nil)
    #expect(suite.diagnostics.map(\.kind) == [.unsupportedType])
  }

  @Test func validPropertyListAnyIsStored() throws {
    let suite = TestSuite()
    let value: [String: Any] = [
      "a": 1, "b": ["x", 2.5, true], "c": Data([1]), "d": Date(timeIntervalSince1970: 0),
    ]
    try suite.defaults.store(value, forKey: "dict")
    let read = suite.defaults.dictionary(forKey: "dict")
    #expect(read?["a"] as? Int == 1)
    #expect((read?["b"] as? [Any])?.count == 3)
  }
}

import Foundation
import Testing

@testable import UserDefault

@Suite("Key names and collisions")
struct KeyValidationTests {
  @Test func emptyAndControlCharacterNamesAreReportedAndRefused() {
    let suite = TestSuite()
    let bad = "bad\u{01}key-\(UUID().uuidString)"
    let key = UserDefaults.Key<Int>(bad, default: 3)
    #expect(Diagnostics.events(forKey: bad).map(\.kind) == [.invalidKey])
    suite.defaults[key] = 4
    #expect(suite.defaults.object(forKey: bad) == nil)
    #expect(suite.defaults[key] == 3)
    #expect(KeyName.problem(with: "") != nil)
    #expect(KeyName.problem(with: "tabs\tand\nnewlines are fine") == nil)
    #expect(KeyName.problem(with: "dots.slashes/and spaces ✓") == nil)
  }

  /// Regression: the test read the diagnostics without installing the recorder, so it
  /// failed whenever it ran before every other test that installs it (CI at 57c2ea6).
  @Test func keysOfDifferentTypesWithOneNameAreReportedWithBothDeclarations() {
    Diagnostics.installRecorder()
    let name = uniqueKey()
    _ = UserDefaults.Key<Int>(name, default: 0)
    _ = UserDefaults.Key<Int>(name, default: 1)  // same type: not a collision
    #expect(Diagnostics.events(forKey: name).isEmpty)
    _ = UserDefaults.Key<String>(name, default: "")
    // The String key clashes with each of the two Int declarations.
    let events = Diagnostics.events(forKey: name)
    #expect(events.map(\.kind) == [.keyCollision, .keyCollision])
    #expect(events.first?.message.contains("(Int in any suite)") == true)
    #expect(events.first?.message.contains("(String in any suite)") == true)
    #expect(events.first?.message.contains("KeyValidationTests.swift") == true)
  }

  @Test func wrappersInDifferentSuitesDoNotCollide() {
    let first = TestSuite()
    let second = TestSuite()
    let name = uniqueKey()
    _ = UserDefaultsWrapper<Int>(key: name, default: 0, userDefaults: first.defaults)
    _ = UserDefaultsWrapper<String>(key: name, default: "", userDefaults: second.defaults)
    #expect(Diagnostics.events(forKey: name).isEmpty)
    _ = UserDefaultsWrapper<String>(key: name, default: "", userDefaults: first.defaults)
    #expect(Diagnostics.events(forKey: name).map(\.kind) == [.keyCollision])
  }
}

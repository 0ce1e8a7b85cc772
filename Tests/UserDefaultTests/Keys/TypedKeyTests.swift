import Foundation
import Testing

@testable import UserDefault

extension UserDefaults.Keys {
  static let testLaunchCount = Key<Int>("TypedKeyTests.launchCount", default: 0)
  static let testTheme = Key<Theme>("TypedKeyTests.theme", default: .system)
  static let testProfile = Key<Profile?>("TypedKeyTests.profile")
  static let testRecent = Key<[URL]>("TypedKeyTests.recentFiles", default: [])
  static let testLimit = Key<Int?>("TypedKeyTests.limit", default: 5)
}

private let defaultEvaluations = Counter()

@Suite("Typed keys")
struct TypedKeyTests {
  @Test func subscriptReadsDefaultThenWrittenValue() {
    let suite = TestSuite()
    let defaults = suite.defaults
    #expect(defaults[.testLaunchCount] == 0)
    defaults[.testLaunchCount] += 1
    defaults[.testLaunchCount] += 1
    #expect(defaults[.testLaunchCount] == 2)
    #expect(defaults.integer(forKey: "TypedKeyTests.launchCount") == 2)
  }

  @Test func resetRemovesOneOrSeveralKeys() {
    let suite = TestSuite()
    let defaults = suite.defaults
    defaults[.testLaunchCount] = 3
    defaults[.testTheme] = .dark
    #expect(!defaults.isDefaultValue(.testLaunchCount))
    defaults.reset(.testLaunchCount, .testTheme)
    #expect(defaults[.testLaunchCount] == 0)
    #expect(defaults[.testTheme] == .system)
    #expect(defaults.isDefaultValue(.testLaunchCount))
    #expect(!defaults.hasStoredValue(.testLaunchCount))
  }

  @Test func writingTheDefaultIsStoredButIsDefault() {
    let suite = TestSuite()
    let defaults = suite.defaults
    defaults[.testLaunchCount] = 0
    #expect(defaults.isDefaultValue(.testLaunchCount))
    #expect(defaults.hasStoredValue(.testLaunchCount))
  }

  @Test func optionalKeyIsNilUntilWrittenAndNilRemoves() {
    let suite = TestSuite()
    let defaults = suite.defaults
    #expect(defaults[.testProfile] == nil)
    defaults[.testProfile] = Profile(name: "Ada", age: 36)
    #expect(defaults[.testProfile]?.name == "Ada")
    defaults[.testProfile] = nil
    #expect(defaults.object(forKey: "TypedKeyTests.profile") == nil)
  }

  @Test func optionalWithDefaultReadsTheDefaultAfterNil() {
    let suite = TestSuite()
    let defaults = suite.defaults
    #expect(defaults[.testLimit] == 5)
    defaults[.testLimit] = 9
    #expect(defaults[.testLimit] == 9)
    defaults[.testLimit] = nil
    #expect(defaults[.testLimit] == 5)
    #expect(!defaults.hasStoredValue(.testLimit))
  }

  @Test func computedDefaultIsEvaluatedOnEachReadNeverAtCreation() {
    let suite = TestSuite()
    let defaults = suite.defaults
    let before = defaultEvaluations.value
    let key = UserDefaults.Key<Int>(uniqueKey()) {
      defaultEvaluations.incremented()
    }
    #expect(defaultEvaluations.value == before)
    let first = defaults[key]
    let second = defaults[key]
    #expect(second == first + 1)
    defaults[key] = 100
    #expect(defaults[key] == 100)
    #expect(defaultEvaluations.value == before + 2)
  }

  @Test func arraysOfURLsKeepWebURLsWhole() {
    let suite = TestSuite()
    let defaults = suite.defaults
    let urls = [URL(string: "https://example.com/a?q=1")!, URL(fileURLWithPath: "/tmp/x")]
    defaults[.testRecent] = urls
    #expect(defaults[.testRecent] == urls)
  }

  @Test("Plain set and removeObject on the same instance are seen by typed reads")
  func plainWritesAreSeen() {
    let suite = TestSuite()
    let defaults = suite.defaults
    let key = UserDefaults.Key<Profile?>(uniqueKey())
    defaults[key] = Profile(name: "a", age: 1)
    #expect(defaults[key]?.age == 1)
    defaults.set(#"{"age":2,"name":"b"}"#, forKey: key.name)
    #expect(defaults[key]?.age == 2)
    defaults.removeObject(forKey: key.name)
    #expect(defaults[key] == nil)
    defaults.set(7, forKey: "plain")
    #expect(defaults[UserDefaults.Key<Int>("plain", default: 0)] == 7)
  }

  @Test func removeAllRemovesEveryGivenKey() {
    let suite = TestSuite()
    let defaults = suite.defaults
    defaults[.testLaunchCount] = 1
    defaults[.testTheme] = .light
    defaults.reset([UserDefaults.Keys.testLaunchCount, UserDefaults.Keys.testTheme])
    #expect(!defaults.hasStoredValue(.testLaunchCount))
    #expect(!defaults.hasStoredValue(.testTheme))
  }
}

import Foundation
import Testing

@testable import UserDefault

/// Surface C: `UserDefaultsWrapper` with a removable projected value.
@Suite("UserDefaultsWrapper")
struct UserDefaultsWrapperTests {
  final class User {
    @UserDefaultsWrapper<String> var firstName: String
    @UserDefaultsWrapper<String> var lastName: String
    @UserDefaultsWrapper<Int?> var age: Int?
    @UserDefaultsWrapper<Int?> var old: Int?
    @UserDefaultsWrapper<[String]?> var tags: [String]?
    @UserDefaultsWrapper<[Any]?> var mixed: [Any]?
    @UserDefaultsWrapper<[String: Any]?> var info: [String: Any]?
    @UserDefaultsWrapper<URL?> var site: URL?

    init(_ suite: UserDefaults) {
      _firstName = UserDefaultsWrapper(key: "FirstName", default: "John", userDefaults: suite)
      _lastName = UserDefaultsWrapper(key: "LastName", default: "John", userDefaults: suite)
      _age = UserDefaultsWrapper(key: "Age", userDefaults: suite)
      _old = UserDefaultsWrapper(key: "Old", default: 6, userDefaults: suite)
      _tags = UserDefaultsWrapper(key: "Tags", userDefaults: suite)
      _mixed = UserDefaultsWrapper(key: "Mixed", userDefaults: suite)
      _info = UserDefaultsWrapper(key: "Info", userDefaults: suite)
      _site = UserDefaultsWrapper(key: "Site", userDefaults: suite)
    }
  }

  @Test func removeObjectRestoresTheDefault() {
    let suite = TestSuite()
    let user = User(suite.defaults)
    #expect(user.firstName == "John")
    user.firstName = "Misha"
    #expect(user.firstName == "Misha")
    user.$firstName.removeObject()
    #expect(user.firstName == "John")
    #expect(user.$firstName.key == "FirstName")
  }

  @Test func optionalWithDefaultReadsTheDefaultAfterNil() {
    let suite = TestSuite()
    let user = User(suite.defaults)
    user.old = 18
    #expect(user.old == 18)
    user.old = nil
    #expect(user.old == 6)
  }

  @Test func optionalWithoutDefaultReadsNilAfterNil() {
    let suite = TestSuite()
    let user = User(suite.defaults)
    #expect(user.age == nil)
    user.age = 18
    #expect(user.age == 18)
    user.age = nil
    #expect(user.age == nil)
  }

  @Test func heterogeneousPropertyListsRoundTrip() {
    let suite = TestSuite()
    let user = User(suite.defaults)
    user.mixed = ["a", 1, 2.5, true, ["nested": [1, 2]]]
    #expect(user.mixed?.count == 5)
    #expect(user.mixed?.first as? String == "a")
    user.info = ["name": "x", "n": 3]
    #expect(user.info?["n"] as? Int == 3)
    user.tags = ["a", "b"]
    #expect(user.tags == ["a", "b"])
    user.site = URL(string: "https://example.com/p?q=1")
    #expect(user.site?.absoluteString == "https://example.com/p?q=1")
  }

  @Test func nonPropertyListElementIsRefusedAndNothingIsWritten() {
    let suite = TestSuite()
    let user = User(suite.defaults)
    user.mixed = ["kept"]
    user.mixed = ["a", Theme.dark]
    #expect(user.mixed?.first as? String == "kept")
    #expect(suite.diagnostics.map(\.kind) == [.refusedValue])
    user.info = ["bad": NSObject()]
    #expect(user.info == nil)
  }
}

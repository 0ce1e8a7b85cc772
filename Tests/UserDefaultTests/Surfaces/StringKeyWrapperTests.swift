import Foundation
import Testing

@testable import UserDefault

/// Surface A: `@UserDefault("key", defaultValue:)` for Codable values.
@Suite("@UserDefault with a string key")
struct StringKeyWrapperTests {
  struct User: Codable, Equatable {
    var name: String
  }

  struct Store {
    let suite: UserDefaults
    @UserDefault<Bool> var isDiscountProvided: Bool
    @UserDefault<User?> var defaultUser: User?
    @UserDefault<[String]> var tags: [String]

    init(suite: UserDefaults) {
      self.suite = suite
      _isDiscountProvided = UserDefault("is_discount_provided", defaultValue: false, suite: suite)
      _defaultUser = UserDefault("default_user", defaults: suite)
      _tags = UserDefault("tags", defaultValue: ["a"], defaults: suite)
    }
  }

  @Test func defaultsThenWrittenValues() {
    let suite = TestSuite()
    let store = Store(suite: suite.defaults)
    #expect(store.isDiscountProvided == false)
    #expect(store.defaultUser == nil)
    #expect(store.tags == ["a"])
    store.isDiscountProvided = true
    store.defaultUser = User(name: "Ada")
    store.tags = []
    #expect(store.isDiscountProvided)
    #expect(store.defaultUser == User(name: "Ada"))
    #expect(store.tags == [])
    #expect(suite.defaults.bool(forKey: "is_discount_provided"))
    store.defaultUser = nil
    #expect(suite.defaults.object(forKey: "default_user") == nil)
  }

  @Test func projectedValueGivesKeyAndRemoval() {
    let suite = TestSuite()
    let store = Store(suite: suite.defaults)
    store.isDiscountProvided = true
    #expect(store.$isDiscountProvided.key == "is_discount_provided")
    #expect(store.$isDiscountProvided.hasStoredValue)
    #expect(!store.$isDiscountProvided.isDefaultValue)
    store.$isDiscountProvided.reset()
    #expect(!store.$isDiscountProvided.hasStoredValue)
    #expect(store.isDiscountProvided == false)
  }

  @Test func customCodersApplyToJSONValues() throws {
    let suite = TestSuite()
    struct Event: Codable, Equatable { var at: Date }
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let wrapper = UserDefault<Event?>(
      "event", suite: suite.defaults, encoder: encoder, decoder: decoder)
    wrapper.wrappedValue = Event(at: Date(timeIntervalSince1970: 0))
    #expect(suite.defaults.string(forKey: "event") == #"{"at":"1970-01-01T00:00:00Z"}"#)
    #expect(wrapper.wrappedValue == Event(at: Date(timeIntervalSince1970: 0)))
  }

  /// Swift 6.3 refuses `nonisolated(unsafe)` on a wrapped static property (the backing
  /// storage stays a plain global var); a global-actor-isolated enclosing type works.
  @MainActor @Test func staticPropertiesWork() {
    @MainActor enum Settings {
      static let defaults = UserDefaults(suiteName: "UserDefaultTests.static.\(UUID())")!
      @UserDefault("static_flag", defaultValue: false, defaults: Settings.defaults)
      static var flag: Bool
    }
    #expect(Settings.flag == false)
    Settings.flag = true
    #expect(Settings.flag)
    #expect(Settings.defaults.bool(forKey: "static_flag"))
    Settings.$flag.removeObject()
    #expect(Settings.flag == false)
  }

  @Test func typedKeyWrapperSharesTheKey() {
    let suite = TestSuite()
    let wrapper = UserDefault(.testTheme, defaults: suite.defaults)
    wrapper.wrappedValue = .dark
    #expect(suite.defaults[.testTheme] == .dark)
    #expect(wrapper.projectedValue.key == "TypedKeyTests.theme")
  }
}

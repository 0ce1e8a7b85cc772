import DefaultEntry
import Foundation
import Testing

@testable import UserDefault

/// Surface B with the macros: every form of `@DefaultEntry` in a real extension.
extension UserDefaults {
  @DefaultEntry(default: 123)
  var macroCount: Int

  @DefaultEntry(default: "defaultValue")
  var macroGreeting: String

  @DefaultEntry<String>
  var macroNickname: String?

  @DefaultEntry<Int>(prefixedWith: "customPrefix_")
  var macroOptionalCount: Int?

  @DefaultEntry(default: Theme.system, prefixedWith: "app.")
  var macroTheme: Theme

  @DefaultEntry("explicit.profile", default: Profile(name: "nobody", age: 0))
  var macroProfile: Profile

  @DefaultEntry<[String]>("explicit.tags")
  var macroTags: [String]?

  @DefaultEntry(default: [])
  public var macroHistory: [String]
}

@Suite("@DefaultEntry macros")
struct DefaultEntryMacroTests {
  @Test func defaultsAreReadWhenNothingIsStored() {
    let suite = TestSuite()
    let defaults = suite.defaults
    #expect(defaults.macroCount == 123)
    #expect(defaults.macroGreeting == "defaultValue")
    #expect(defaults.macroNickname == nil)
    #expect(defaults.macroOptionalCount == nil)
    #expect(defaults.macroTheme == .system)
    #expect(defaults.macroProfile == Profile(name: "nobody", age: 0))
    #expect(defaults.macroTags == nil)
    #expect(defaults.macroHistory == [])
  }

  @Test func valuesAreStoredUnderTheGeneratedKeysInTheirBridgedForm() throws {
    let suite = TestSuite()
    let defaults = suite.defaults
    defaults.macroCount = 7
    defaults.macroGreeting = "hi"
    defaults.macroNickname = "nick"
    defaults.macroOptionalCount = 9
    defaults.macroTheme = .dark
    defaults.macroProfile = Profile(name: "Ada", age: 36)
    defaults.macroTags = ["a", "b"]
    defaults.macroHistory = ["x"]

    #expect(defaults.object(forKey: "key_macroCount") as? Int == 7)
    #expect(defaults.string(forKey: "key_macroGreeting") == "hi")
    #expect(defaults.string(forKey: "key_macroNickname") == "nick")
    #expect(defaults.object(forKey: "customPrefix_macroOptionalCount") as? Int == 9)
    #expect(defaults.string(forKey: "app.macroTheme") == "dark")
    let json = try #require(defaults.string(forKey: "explicit.profile"))
    #expect(
      try JSONDecoder().decode(Profile.self, from: Data(json.utf8)) == Profile(name: "Ada", age: 36)
    )
    #expect(defaults.stringArray(forKey: "explicit.tags") == ["a", "b"])
    #expect(defaults.stringArray(forKey: "key_macroHistory") == ["x"])

    #expect(defaults.macroCount == 7)
    #expect(defaults.macroTheme == .dark)
    #expect(defaults.macroProfile == Profile(name: "Ada", age: 36))

    defaults.macroNickname = nil
    #expect(defaults.object(forKey: "key_macroNickname") == nil)
  }

  @Test func valuesWrittenByPlainCallsAreReadBack() {
    let suite = TestSuite()
    let defaults = suite.defaults
    defaults.set(42, forKey: "key_macroCount")
    defaults.set("light", forKey: "app.macroTheme")
    #expect(defaults.macroCount == 42)
    #expect(defaults.macroTheme == .light)
  }

  @Test func keyPathWrapperReadsWritesAndRemovesMacroEntries() {
    let suite = TestSuite()
    let count = UserDefault(\.macroCount, defaults: suite.defaults)
    let nickname = UserDefault(\.macroNickname, defaults: suite.defaults)
    let profile = UserDefault(\.macroProfile, defaults: suite.defaults)
    let tags = UserDefault(\.macroTags, defaults: suite.defaults)

    count.wrappedValue = 5
    nickname.wrappedValue = "n"
    profile.wrappedValue = Profile(name: "B", age: 2)
    tags.wrappedValue = ["t"]
    #expect(suite.defaults.macroCount == 5)
    #expect(suite.defaults.string(forKey: "key_macroNickname") == "n")
    #expect(suite.defaults.macroProfile == Profile(name: "B", age: 2))
    #expect(suite.defaults.stringArray(forKey: "explicit.tags") == ["t"])

    #expect(count.projectedValue.key == "key_macroCount")
    #expect(profile.projectedValue.key == "explicit.profile")
    #expect(count.projectedValue.defaultValue == 123)
    #expect(!count.projectedValue.isDefaultValue)
    count.projectedValue.remove()
    nickname.projectedValue.removeObject()
    profile.projectedValue.reset()
    #expect(count.wrappedValue == 123)
    #expect(nickname.wrappedValue == nil)
    #expect(suite.defaults.object(forKey: "key_macroCount") == nil)
    #expect(suite.defaults.object(forKey: "explicit.profile") == nil)
  }

  @Test func generatedKeysExposeNameDefaultAndReset() {
    let suite = TestSuite()
    let defaults = suite.defaults
    #expect(UserDefaults.macroCountKey.name == "key_macroCount")
    #expect(UserDefaults.macroCountKey.defaultValue == 123)
    #expect(UserDefaults.macroOptionalCountKey.name == "customPrefix_macroOptionalCount")
    defaults.macroCount = 1
    #expect(defaults[UserDefaults.macroCountKey] == 1)
    defaults.reset(UserDefaults.macroCountKey)
    #expect(defaults.macroCount == 123)
    #expect(!defaults.hasStoredValue(UserDefaults.macroCountKey))
  }

  @Test func macroEntriesWorkOnTheLibraryStore() throws {
    let store = PreferencesStore.inMemory()
    store.macroTheme = .light
    store.macroTags = ["m"]
    #expect(store.macroTheme == .light)
    #expect(store.string(forKey: "app.macroTheme") == "light")
    #expect(store.macroTags == ["m"])
  }
}

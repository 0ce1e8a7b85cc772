import DefaultEntry
import Foundation

// Every shape of value type the library stores, through every surface that takes a type:
// no diagnostics at all. A raw-value enum that declares nothing else, one that is also
// Codable, one that is also UserDefaultable, a Codable struct, collections and optionals
// of each, and the seeds' heterogeneous [Any]? and [String: Any]?.
enum Theme: String, Sendable { case light, dark }
enum CodableTheme: String, Codable, Sendable { case light, dark }
enum DeclaredTheme: String, UserDefaultable, Sendable { case light, dark }
enum EverythingTheme: String, Codable, UserDefaultable, Sendable { case light, dark }
struct Profile: Codable, Sendable { var name: String }

extension UserDefaults.Keys {
  static let count = Key<Int>("count", default: 0)
  static let ratio = Key("ratio", default: 0.5)
  static let theme = Key<Theme>("theme", default: .light)
  static let codableTheme = Key<CodableTheme>("codableTheme", default: .light)
  static let declaredTheme = Key<DeclaredTheme>("declaredTheme", default: .light)
  static let everythingTheme = Key<EverythingTheme>("everythingTheme", default: .light)
  static let profile = Key<Profile?>("profile")
  static let profiles = Key<[Profile]>("profiles", default: [])
  static let themes = Key<[Theme]>("themes", default: [])
  static let themeSet = Key<Set<Theme>>("themeSet", default: [])
  static let themesByName = Key<[String: Theme]>("themesByName", default: [:])
  static let codableThemes = Key<[CodableTheme]>("codableThemes", default: [])
  static let declaredThemes = Key<[DeclaredTheme]>("declaredThemes", default: [])
  static let maybeTheme = Key<Theme?>("maybeTheme")
  static let maybeThemeWithDefault = Key<Theme?>("maybeThemeWithDefault", default: .dark)
  static let maybeCodableTheme = Key<CodableTheme?>("maybeCodableTheme", default: nil)
  static let maybeThemes = Key<[Theme]?>("maybeThemes")
  static let recent = Key<[URL]>("recentFiles", default: [])
  static let optionals = Key<[String?]>("optionals", default: [])
  static let sessionStart = Key<Date>("sessionStart", default: { Date() })
  static let computedTheme = Key<Theme>("computedTheme", default: { .dark })
  static let computedProfile = Key<Profile>("computedProfile", default: { Profile(name: "") })
  static let nested = Key<[String: [Int]]>("nested", default: [:])
}

extension UserDefaults {
  @DefaultEntry(default: Theme.light) var entryTheme: Theme
  @DefaultEntry<Profile> var entryProfile: Profile?
  @DefaultEntry(default: []) var entryThemes: [Theme]
}

@MainActor
struct Settings {
  @UserDefault("discount", defaultValue: false) var discount: Bool
  @UserDefault("theme", defaultValue: Theme.light) var theme: Theme
  @UserDefault("user") var user: Profile?
  @UserDefault("maybeTheme") var maybeTheme: Theme?
  @UserDefault("themes", defaultValue: []) var themes: [Theme]
  @UserDefault("list") var list: [Any]?
  @UserDefault("table") var table: [String: Any]?
  @UserDefault(.theme) var keyedTheme
  @UserDefault(\.entryTheme) var entryTheme
}

final class User {
  @UserDefaultsWrapper<String>(key: "FirstName", default: "John") var firstName
  @UserDefaultsWrapper(key: "LastName", default: "John") var lastName: String
  @UserDefaultsWrapper(key: "Age") var age: Int?
  @UserDefaultsWrapper(key: "Old", default: 6) var old: Int?
  @UserDefaultsWrapper(key: "Link") var link: URL?
  @UserDefaultsWrapper(key: "Items") var items: [Any]?
  @UserDefaultsWrapper(key: "Attributes") var attributes: [String: Any]?
  @UserDefaultsWrapper(key: "AllItems", default: []) var allItems: [Any]
  @UserDefaultsWrapper(key: "Tags") var tags: [String]?
  @UserDefaultsWrapper(key: "Blob") var blob: Data?
  @UserDefaultsWrapper(key: "Theme", default: .dark) var theme: Theme
  @UserDefaultsWrapper(key: "Profile") var profile: Profile?
  @UserDefaultsWrapper(key: "Themes") var themes: [CodableTheme]?
  @UserDefaultsWrapper(key: "Everything", default: .light) var everything: EverythingTheme
  @UserDefaultsWrapper(key: "MaybeTheme") var maybeTheme: Theme?
  @UserDefaultsWrapper(key: "MaybeCodableTheme") var maybeCodableTheme: CodableTheme?
  @UserDefaultsWrapper(key: "MaybeThemes") var maybeThemes: [Theme]?
}
